import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DnsUnavailableError } from '#lib/dns/errors.ts';
import { createDnsResolver, MAX_LOOKUP_BUDGET_MS } from '#lib/dns/resolver.ts';
import type { TxtLookup } from '#lib/dns/rules/answers.ts';
import { verificationErrors } from '#lib/domains/api/errors.ts';
import { recordsLookup, routeLookup } from '#lib/domains/lookups.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { rejection } from '#test/support/fixtures.ts';

let dns: DnsTestServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns?.close());

/** Short timeouts keep the failure cases quick; the bound they prove is the same. */
const TIMEOUT_MS = 250;
const resolver = () => createDnsResolver({ servers: [dns.address], timeoutMs: TIMEOUT_MS, tries: 2 });

let sequence = 0;
const uniqueName = (label = 'txt') => `_${label}-${++sequence}.example.com`;

/** The values found, sorted (DNS does not order a record set), or the answer itself when none. */
const sortedValues = (found: TxtLookup) => (found.kind === 'found' ? [...found.values].sort() : found);

describe.concurrent('TXT lookups against a real DNS server', () => {
  it('finds a single TXT value', async () => {
    // Prepare
    const name = uniqueName();
    dns.setTxt(name, ['token-123']);
    // Act
    const found = await resolver().lookupTxt(name);
    // Assess
    expect(found).toEqual({ kind: 'found', values: ['token-123'] });
  });

  it('returns every TXT value, so a caller can look for its own among them', async () => {
    // Prepare
    const name = uniqueName();
    dns.setTxt(name, ['v=spf1 -all', 'token-abc', 'google-site-verification=xyz']);
    // Act
    const found = await resolver().lookupTxt(name);
    // Assess
    expect(sortedValues(found)).toEqual(['google-site-verification=xyz', 'token-abc', 'v=spf1 -all']);
  });

  it('joins the chunks of one record into one value', async () => {
    // Prepare: one record written as three strings, and one longer than a 255-byte chunk
    const name = uniqueName();
    const long = 'k'.repeat(600);
    dns.setTxt(name, [['tok', 'en-', '42'], long]);
    // Act
    const found = await resolver().lookupTxt(name);
    // Assess
    expect(sortedValues(found)).toEqual([long, 'token-42']);
  });

  it('matches the name ignoring case', async () => {
    // Prepare
    const name = uniqueName();
    dns.setTxt(name, ['token-case']);
    // Act
    const found = await resolver().lookupTxt(name.toUpperCase());
    // Assess
    expect(found).toEqual({ kind: 'found', values: ['token-case'] });
  });

  it('falls back to TCP when the records do not fit in a UDP answer', async () => {
    // Prepare: about 3 KB of records, above any UDP size the resolver announces
    const name = uniqueName();
    const values = Array.from({ length: 40 }, (_, index) => `token-${index}-${'v'.repeat(64)}`);
    dns.setTxt(name, values);
    // Act
    const found = await resolver().lookupTxt(name);
    // Assess: a truncated UDP answer carries no records, so all 40 came over TCP
    expect(sortedValues(found)).toEqual([...values].sort());
  });

  it('answers none for a name that does not exist (NXDOMAIN)', async () => {
    // Act
    const found = await resolver().lookupTxt(uniqueName('missing'));
    // Assess
    expect(found).toEqual({ kind: 'none' });
  });

  it('answers none for a name that exists without TXT records (NODATA)', async () => {
    // Prepare: one name with no TXT, and the parent of a name that has one (an empty non-terminal)
    const bare = uniqueName('bare');
    dns.setTxt(bare, []);
    const child = `_child.${uniqueName('parent')}`;
    dns.setTxt(child, ['token']);
    // Act
    const [none, parent] = await Promise.all([
      resolver().lookupTxt(bare),
      resolver().lookupTxt(child.slice('_child.'.length)),
    ]);
    // Assess
    expect(none).toEqual({ kind: 'none' });
    expect(parent).toEqual({ kind: 'none' });
  });

  it.each([
    ['servfail', 'ESERVFAIL'],
    ['refused', 'EREFUSED'],
  ] as const)('throws DnsUnavailableError (a 503) when the server answers %s', async (mode, code) => {
    // Prepare
    const name = uniqueName(mode);
    dns.setMode(name, mode);
    // Act
    const error = await rejection(resolver().lookupTxt(name));
    // Assess
    expect(error).toBeInstanceOf(DnsUnavailableError);
    expect(error).toMatchObject({ code, lookupName: name, retryAfterSeconds: 5 });
    // The HTTP layer answers it 503 with Retry-After.
    expect(verificationErrors(error)).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
  });

  it('gives up on a silent server within its budget, after retrying', async () => {
    // Prepare
    const name = uniqueName('silent');
    dns.setMode(name, 'silent');
    const txt = resolver();
    const started = performance.now();
    // Act
    const error = await rejection(txt.lookupTxt(name));
    const elapsed = performance.now() - started;
    // Assess
    expect(error).toBeInstanceOf(DnsUnavailableError);
    expect(error).toMatchObject({ code: 'ETIMEOUT' });
    expect(txt.budgetMs).toBe(3 * TIMEOUT_MS);
    expect(elapsed).toBeGreaterThanOrEqual(2 * TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(txt.budgetMs + 500);
    expect(dns.queries(name)).toBe(2);
  });

  it('retries a lost query and finds the record on the second try', async () => {
    // Prepare
    const name = uniqueName('lossy');
    dns.setTxt(name, ['token-retry']);
    dns.dropNext(name, 1);
    // Act
    const found = await resolver().lookupTxt(name);
    // Assess
    expect(found).toEqual({ kind: 'found', values: ['token-retry'] });
    expect(dns.queries(name)).toBe(2);
  });

  it('throws DnsUnavailableError when nothing listens at the server address', async () => {
    // Prepare: a server started and closed leaves a port with nobody behind it
    const gone = await startDnsServer();
    await gone.close();
    const txt = createDnsResolver({ servers: [gone.address], timeoutMs: TIMEOUT_MS, tries: 2 });
    // Act
    const error = await rejection(txt.lookupTxt(uniqueName('gone')));
    // Assess
    expect(error).toBeInstanceOf(DnsUnavailableError);
  });
});

describe('TXT lookups of names DNS cannot carry', () => {
  it.each([
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`],
    [
      'a name over 253 characters',
      `_challenge.${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`,
    ],
  ])('rejects %s as a bad question (EBADNAME), not as an outage', async (_, name) => {
    // Act
    const error = await rejection(resolver().lookupTxt(name));
    // Assess
    expect(error).not.toBeInstanceOf(DnsUnavailableError);
    expect(error).toMatchObject({ code: 'EBADNAME' });
    expect(dns.queries(name)).toBe(0);
  });
});

describe('TXT resolver options', () => {
  it('defaults to 2 s per try and 2 tries, inside the Lambda timeout', () => {
    // Act
    const txt = createDnsResolver();
    // Assess: two tries of 2 s, and one tick of Node's 1 s timeout check
    expect(txt.budgetMs).toBe(5_000);
    expect(txt.budgetMs).toBeLessThanOrEqual(MAX_LOOKUP_BUDGET_MS);
  });

  it.each([
    ['a budget above the maximum', { timeoutMs: 3_000, tries: 2 }],
    ['a zero timeout', { timeoutMs: 0 }],
    ['a fractional try count', { tries: 1.5 }],
    ['an empty server list', { servers: [] }],
    ['a server that is not an address', { servers: ['dns.example:53'] }],
  ])('refuses %s', (_, options) => {
    // Act / Assess
    expect(() => createDnsResolver(options)).toThrow();
  });
});

describe.concurrent('routing lookups against a real DNS server (the CNAME to the edge)', () => {
  it('finds a CNAME target, and addresses where there is no CNAME, and nothing where there is neither', async () => {
    // Prepare
    const [aliased, flattened, empty] = [uniqueName('www'), uniqueName('apex'), uniqueName('none')];
    dns.setCname(aliased, 'edge.example.net');
    dns.setAddresses(flattened, ['192.0.2.1', '192.0.2.2']);
    // Act
    const [cname, addresses, none] = await Promise.all(
      [aliased, flattened, empty].map((name) => resolver().lookupRoute(name)),
    );
    // Assess
    expect(cname).toEqual({ cname: 'edge.example.net', addresses: [] });
    expect({ ...addresses, addresses: [...(addresses?.addresses ?? [])].sort() }).toEqual({
      cname: null,
      addresses: ['192.0.2.1', '192.0.2.2'],
    });
    expect(none).toEqual({ cname: null, addresses: [] });
  });

  it('checks a domain’s records at once, and leaves the routing record unknown when DNS does not answer for it', async () => {
    // Prepare
    const [served, failing] = [uniqueName('served'), uniqueName('failing')];
    dns.setTxt(`_ds-challenge.${served}`, ['token']);
    dns.setCname(served, 'edge.example.net');
    dns.setTxt(`_ds-challenge.${failing}`, ['token']);
    dns.setMode(failing, 'servfail');
    const lookup = recordsLookup(resolver(), 'edge.example.net');
    // Act
    const [found, unknown] = await Promise.all([lookup(served), lookup(failing)]);
    // Assess
    expect(found).toEqual({ txt: { kind: 'found', values: ['token'] }, route: { status: 'found', flattened: false } });
    expect(unknown).toEqual({ txt: { kind: 'found', values: ['token'] } });
  });

  it('checks an apex by its addresses: found when every one is the edge host’s, shown as flattened', async () => {
    // Prepare: the edge host answers three addresses; one apex answers two of them, another one more besides.
    const [apex, partly] = [uniqueName('apex'), uniqueName('partly')];
    dns.setAddresses('edge.example.net', ['192.0.2.1', '192.0.2.2', '192.0.2.3']);
    dns.setAddresses(apex, ['192.0.2.1', '192.0.2.3']);
    dns.setAddresses(partly, ['192.0.2.1', '198.51.100.9']);
    const route = routeLookup(resolver(), 'edge.example.net');
    // Act
    const [whole, part] = await Promise.all([route(apex), route(partly)]);
    // Assess
    expect(whole).toEqual({ status: 'found', flattened: true });
    expect(part).toEqual({ status: 'wrong', flattened: true });
  });
});
