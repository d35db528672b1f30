/**
 * The DNS lookups of a domain's records (the TXT record that proves it, the CNAME that routes it to the edge),
 * bounded in time so a silent resolver cannot hold a Lambda (10 s timeout) hostage: `timeoutMs` per try,
 * `tries` tries, under a hard deadline (`budgetMs`) per lookup.
 */
import { Resolver } from 'node:dns/promises';
import { DnsServersError, parseDnsServers } from '#lib/dns/servers.ts';
import { ConfigError } from '#lib/platform/config-error.ts';
import { DnsUnavailableError } from './errors.ts';
import type { RouteLookup, TxtLookup } from './rules/answers.ts';

export type DnsResolver = {
  /** The TXT records at `name`, each record's chunks joined; `none` for NXDOMAIN and NODATA. */
  lookupTxt(name: string): Promise<TxtLookup>;
  /** How `name` routes: its CNAME target, or else its IPv4 addresses (none: NXDOMAIN, NODATA). */
  lookupRoute(name: string): Promise<RouteLookup>;
  /** The IPv4 addresses of `name` ([] for NXDOMAIN and NODATA). */
  lookupAddresses(name: string): Promise<string[]>;
  /** Every address of `name`, IPv4 and IPv6 ([] for NXDOMAIN and NODATA): where a webhook's host points. */
  lookupHostAddresses(name: string): Promise<string[]>;
  /** The most a lookup can take, retries included, before it throws `DnsUnavailableError`. */
  readonly budgetMs: number;
};

export type DnsResolverOptions = {
  /** `host:port` entries (see `parseDnsServers`); the system's resolver when absent, as on Lambda. */
  servers?: readonly string[];
  /** Per try. */
  timeoutMs?: number;
  tries?: number;
};

/** Whatever the options, a lookup stays far inside the Lambda timeout (10 s). */
export const MAX_LOOKUP_BUDGET_MS = 5_000;

/** The name does not exist (NXDOMAIN) or has no TXT record (NODATA): a definite "nothing there". */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);
/** The question itself is wrong (a name too long for DNS…): a caller's bug, not an outage. */
const BAD_QUESTION = new Set(['EBADNAME', 'EBADQUERY', 'EBADFAMILY', 'EBADFLAGS', 'EBADHINTS', 'EBADSTR']);

const positiveInteger = (name: string, value: number) => {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
};

export function createDnsResolver({ servers, timeoutMs = 2_000, tries = 2 }: DnsResolverOptions = {}): DnsResolver {
  positiveInteger('timeoutMs', timeoutMs);
  positiveInteger('tries', tries);
  // Node checks c-ares's timeouts on a timer ticking every min(timeoutMs, 1 s), so a try may be noticed as
  // timed out one tick late: the deadline allows that tick, or it would cut the last try short.
  const budgetMs = timeoutMs * tries + Math.min(timeoutMs, 1_000);
  if (budgetMs > MAX_LOOKUP_BUDGET_MS) {
    throw new RangeError(`timeoutMs × tries (+ one tick) must be at most ${MAX_LOOKUP_BUDGET_MS} ms, got ${budgetMs}`);
  }
  if (servers?.length === 0) throw new RangeError('servers must not be empty; leave it out for the system resolver');
  // Fails now, not at the first lookup, on a server that is not `IP` or `IP:port`.
  if (servers) new Resolver().setServers(servers);

  /** One question under the deadline: its answer, or null for a definite "nothing there". */
  async function ask<Answer>(name: string, question: (resolver: Resolver) => Promise<Answer>): Promise<Answer | null> {
    // One resolver per lookup, so the deadline's cancel() ends this lookup only. `maxTimeout` stops c-ares
    // from doubling the timeout on each retry; the deadline holds even when several servers multiply tries.
    const resolver = new Resolver({ timeout: timeoutMs, tries, maxTimeout: timeoutMs });
    if (servers) resolver.setServers(servers);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, budgetMs);
    try {
      return await question(resolver);
    } catch (error) {
      const code = timedOut ? 'ETIMEOUT' : String((error as { code?: unknown }).code);
      if (NO_RECORD.has(code)) return null;
      if (BAD_QUESTION.has(code)) throw error;
      throw new DnsUnavailableError(code, name, { cause: error, servers });
    } finally {
      clearTimeout(deadline);
    }
  }

  async function lookupTxt(name: string): Promise<TxtLookup> {
    const records = await ask(name, (resolver) => resolver.resolveTxt(name));
    // A record is one or more strings of at most 255 bytes; long values (DKIM keys…) span several.
    const values = (records ?? []).map((chunks) => chunks.join(''));
    return values.length === 0 ? { kind: 'none' } : { kind: 'found', values };
  }

  const lookupAddresses = async (name: string) => (await ask(name, (resolver) => resolver.resolve4(name))) ?? [];

  async function lookupRoute(name: string): Promise<RouteLookup> {
    const [target] = (await ask(name, (resolver) => resolver.resolveCname(name))) ?? [];
    if (target !== undefined) return { cname: target, addresses: [] };
    return { cname: null, addresses: await lookupAddresses(name) };
  }

  const lookupHostAddresses = async (name: string) => {
    const [v4, v6] = await Promise.all([
      lookupAddresses(name),
      ask(name, (resolver) => resolver.resolve6(name)).then((found) => found ?? []),
    ]);
    return [...v4, ...v6];
  };

  return { lookupTxt, lookupRoute, lookupAddresses, lookupHostAddresses, budgetMs };
}

/**
 * The resolver a function's configuration names (`DNS_RESOLVER`, `DNS_TIMEOUT_MS`). The functions that ask DNS
 * build it at cold start, so a bad `DNS_RESOLVER` fails their cold start; the others never parse it.
 */
export function configuredResolver(config: { dnsResolver?: string; dnsTimeoutMs: number }): DnsResolver {
  return createDnsResolver({ servers: dnsServersOf(config), timeoutMs: config.dnsTimeoutMs });
}

/** The servers `DNS_RESOLVER` names, as the resolver takes them; undefined: the system's. */
export function dnsServersOf(config: { dnsResolver?: string }): string[] | undefined {
  if (config.dnsResolver === undefined) return undefined;
  try {
    return parseDnsServers(config.dnsResolver);
  } catch (error) {
    if (error instanceof DnsServersError) throw new ConfigError(`Invalid configuration: DNS_RESOLVER ${error.message}`);
    throw error;
  }
}
