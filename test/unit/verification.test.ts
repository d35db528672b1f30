import { describe, expect, it } from 'vitest';
import { functionSizing } from '#infra/function-sizing.ts';
import { configuredResolver, createDnsResolver, dnsServersOf } from '#lib/dns/resolver.ts';
import { mismatchMessage } from '#lib/domains/api/errors.ts';
import {
  holdsToken,
  newVerificationToken,
  VERIFIABLE_NAME_MAX,
  verificationName,
} from '#lib/domains/rules/verification.ts';
import { ConfigError, DNS_TIMEOUT_MAX_MS, loadConfig } from '#lib/platform/config.ts';

describe('the verification record', () => {
  it('lives at _ds-challenge.<name>, which fits in DNS for names of up to 239 characters', () => {
    // Assess
    expect(verificationName('example.com')).toBe('_ds-challenge.example.com');
    expect(VERIFIABLE_NAME_MAX).toBe(239);
    expect(verificationName('a'.repeat(VERIFIABLE_NAME_MAX))).toHaveLength(253);
  });

  it('holds a random token of 32 URL-safe characters, different every time', () => {
    // Act
    const tokens = Array.from({ length: 1_000 }, newVerificationToken);
    // Assess
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('is found among several values, white space around it forgiven, never as a part of one', () => {
    // Assess
    expect(holdsToken(['v=spf1 -all', ' tok '], 'tok')).toBe(true);
    expect(holdsToken(['tok2', 'xtok', 'to k'], 'tok')).toBe(false);
    expect(holdsToken([], 'tok')).toBe(false);
  });

  it('says what was expected and what was found, quoting at most five values of at most 64 characters', () => {
    // Prepare
    const mismatch = (found: string[]) => mismatchMessage({ name: '_ds-challenge.a.com', expected: 'tok', found });
    // Act / Assess
    expect(mismatch([])).toBe('Expected a TXT record at _ds-challenge.a.com with the value "tok", found none.');
    expect(mismatch(['old', 'say "hi"'])).toBe(
      'Expected a TXT record at _ds-challenge.a.com with the value "tok", found "old", "say \\"hi\\"".',
    );
    expect(mismatch(['y'.repeat(65), '2', '3', '4', '5', '6'])).toBe(
      `Expected a TXT record at _ds-challenge.a.com with the value "tok", found "${'y'.repeat(64)}…", "2", "3", "4", "5" and 1 more.`,
    );
  });
});

describe('DNS settings', () => {
  const load = (env: Record<string, string>) => loadConfig({ TABLE_NAME: 't', ...env });

  it('leave the system resolver and 2 s tries by default (as on Lambda)', () => {
    // Act
    const config = load({});
    // Assess
    expect(dnsServersOf(config)).toBeUndefined();
    expect(config.dnsTimeoutMs).toBe(2_000);
    expect(dnsServersOf(load({ DNS_RESOLVER: ' ' }))).toBeUndefined();
  });

  it('read DNS_RESOLVER as host:port entries and DNS_TIMEOUT_MS up to 2000', () => {
    // Act
    const config = load({ DNS_RESOLVER: '127.0.0.1:5353, [::1]:53,10.0.0.2', DNS_TIMEOUT_MS: '250' });
    // Assess
    expect(dnsServersOf(config)).toEqual(['127.0.0.1:5353', '[::1]:53', '10.0.0.2:53']);
    expect(config.dnsTimeoutMs).toBe(250);
  });

  it('refuse a DNS_RESOLVER that is not IP:port entries when a function that asks DNS builds its resolver (its cold start)', () => {
    // Prepare: the other functions never parse it
    const config = load({ DNS_RESOLVER: 'dns.example:53' });
    // Act / Assess
    expect(() => configuredResolver(config)).toThrow(ConfigError);
    expect(() => configuredResolver(config)).toThrow(
      /^Invalid configuration: DNS_RESOLVER must be a comma-separated list/,
    );
  });

  it('bound a lookup, its retry included, to half the function timeout at the longest setting', () => {
    // Act
    const { budgetMs } = createDnsResolver({ timeoutMs: load({}).dnsTimeoutMs });
    const longest = createDnsResolver({ timeoutMs: DNS_TIMEOUT_MAX_MS });
    // Assess: the rest of the 10 s is the DynamoDB reads and writes around the lookup.
    expect(budgetMs).toBe(longest.budgetMs);
    expect(longest.budgetMs).toBeLessThanOrEqual((functionSizing.timeoutSeconds * 1_000) / 2);
  });

  it.each([
    [{ DNS_RESOLVER: 'dns.example.com:53' }, /DNS_RESOLVER must be a comma-separated list of IP:port/],
    [{ DNS_RESOLVER: '127.0.0.1:99999' }, /DNS_RESOLVER must be .*no valid port/],
    [{ DNS_TIMEOUT_MS: '2001' }, /DNS_TIMEOUT_MS must be at most 2000/],
    [{ DNS_TIMEOUT_MS: '0' }, /DNS_TIMEOUT_MS must be a positive integer/],
  ])('refuse %o with a message naming the setting (at the cold start of a function that asks DNS)', (env, message) => {
    // Act / Assess: loading and building the resolver, as such a function's create() does
    const coldStart = () => configuredResolver(load(env));
    expect(coldStart).toThrow(ConfigError);
    expect(coldStart).toThrow(message);
  });
});
