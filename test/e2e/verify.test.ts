/**
 * Domain ownership proven by DNS, end to end: the local gateway runs the verify function against a real
 * authoritative DNS server on 127.0.0.1 (`test/support/dns-server.ts`, on a free port) through `DNS_RESOLVER`.
 * The consistency checker runs after every test over the owners and names it touched.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { expectConsistent } from '#test/reliability/helpers.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns, publish, storeOldShapeDomain } from '#test/support/domains.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';
import { ISO_UTC, invalid, NOT_FOUND, TAKEN } from './helpers.ts';

const DOMAINS = '/api/v1/domains';
const verifyPath = (id: number) => `${DOMAINS}/${id}/verify`;

let dns: DnsTestServer;
let gateway: Gateway;
/** The same functions, with 200 ms DNS tries: for the resolver that never answers. */
let impatient: Gateway;
let touched: { owners: string[]; names: string[] };

beforeAll(async () => {
  dns = await startDnsServer();
  gateway = await startTestGateway({ config: configWithDns(dns) });
  impatient = await startTestGateway({ config: configWithDns(dns, { DNS_TIMEOUT_MS: '200' }) });
});
afterAll(async () => {
  await Promise.all([gateway?.close(), impatient?.close()]);
  await dns?.close();
});
afterEach(async () => {
  await expectConsistent(touched.owners, { domainNames: touched.names });
});

async function owner(on: Gateway = gateway): Promise<Client> {
  const client = await newClient(on);
  touched.owners.push(client.owner);
  return client;
}

function newName(label = 'verify'): string {
  const name = `${label}-${randomUUID().slice(0, 8)}.example.com`;
  touched.names.push(name);
  return name;
}

async function store(client: Client, name: string) {
  const reply = await client.post(DOMAINS, { name });
  expect(reply.status, reply.text).toBe(201);
  return reply.body.data;
}

const verify = (client: Client, id: number) => client.request('POST', verifyPath(id));

/** Two owners store one name and both publish their tokens; Alice verifies first, so hers is active. */
async function activeForAlicePendingForBob() {
  const [alice, bob] = await Promise.all([owner(), owner()]);
  const name = newName();
  const [hers, his] = [await store(alice, name), await store(bob, name)];
  publish(dns, hers, his);
  await verify(alice, hers.id);
  return { alice, bob, hers, his };
}
const begin = () => {
  touched = { owners: [], names: [] };
};

describe('the lifecycle: pending, then active once the TXT record is there', () => {
  it('stores a domain pending, with a random token to publish at _ds-challenge.<name>', async () => {
    // Prepare
    begin();
    const api = await owner();
    const name = newName();
    // Act
    const first = await store(api, name);
    const second = await store(api, newName());
    // Assess
    expect(first).toMatchObject({
      name,
      status: 'pending',
      verification: { type: 'TXT', name: `_ds-challenge.${name}`, value: expect.stringMatching(/^[\w-]{32}$/) },
      verified_at: null,
      last_checked_at: null,
    });
    expect(second.verification.value).not.toBe(first.verification.value);
    expect((await api.get(`${DOMAINS}/${first.id}`)).body.data).toEqual(first);
  });

  it('becomes active when the record holds the token (200), and says when', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    publish(dns, domain);
    // Act
    const reply = await verify(api, domain.id);
    // Assess
    expect(reply.status, reply.text).toBe(200);
    // The TXT record is found; no CNAME to the edge yet (NXDOMAIN): it waits for its DNS.
    expect(reply.body.data).toEqual({
      ...domain,
      status: 'active',
      serving: 'waiting_for_dns',
      records: [
        { ...domain.records[0], status: 'found' },
        { ...domain.records[1], status: 'missing' },
      ],
      verified_at: expect.stringMatching(ISO_UTC),
      last_checked_at: reply.body.data.verified_at,
      updated_at: reply.body.data.verified_at,
    });
    expect((await api.get(`${DOMAINS}/${domain.id}`)).body).toEqual(reply.body);
    expect((await api.get(DOMAINS)).body.data).toEqual([reply.body.data]);
  });

  it('finds the token among several TXT values at the name', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    dns.setTxt(domain.verification.name, ['v=spf1 -all', `  ${domain.verification.value} `, 'another-token']);
    // Act
    const reply = await verify(api, domain.id);
    // Assess
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.status).toBe('active');
  });

  it('verifies a Unicode name at its punycode record name', async () => {
    // Prepare
    begin();
    const api = await owner();
    const label = `bücher-${randomUUID().slice(0, 6)}`;
    const domain = await store(api, `${label}.de`);
    touched.names.push(domain.name);
    // Act
    publish(dns, domain);
    const reply = await verify(api, domain.id);
    // Assess
    expect(domain.verification.name).toBe(`_ds-challenge.${domain.name}`);
    expect(domain.name).toMatch(/^xn--/);
    expect(reply.status, reply.text).toBe(200);
  });

  it('re-checks an active domain: 200 again, verified_at kept, last_checked_at moved on', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    publish(dns, domain);
    const firstReply = await verify(api, domain.id);
    const first = firstReply.body.data;
    // Act
    const again = await verify(api, domain.id);
    // Assess
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'active', verified_at: first.verified_at });
    expect(again.body.data.last_checked_at > first.last_checked_at).toBe(true);
    // What the check found changed the domain as shown: its updated_at moves with its ETag
    expect(again.body.data.updated_at).toBe(again.body.data.last_checked_at);
    expect(again.headers.get('etag')).not.toBe(firstReply.headers.get('etag'));
  });

  it('keeps an active domain active when its record is gone, and says so (422)', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    publish(dns, domain);
    const active = (await verify(api, domain.id)).body.data;
    dns.clear(domain.verification.name);
    // Act
    const reply = await verify(api, domain.id);
    const shown = (await api.get(`${DOMAINS}/${domain.id}`)).body.data;
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body.errors.verification[0]).toMatch(/, found none\.$/);
    expect(shown).toMatchObject({ status: 'active', verified_at: active.verified_at });
    expect(shown.last_checked_at > active.last_checked_at).toBe(true);
  });
});

describe('a record that does not prove the domain: 422 saying what was expected and found', () => {
  it('no TXT record at all (the name does not exist)', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    const { name, value } = domain.verification;
    // Act
    const reply = await verify(api, domain.id);
    const shown = (await api.get(`${DOMAINS}/${domain.id}`)).body.data;
    // Assess
    expect(reply.body).toEqual(
      invalid('verification', `Expected a TXT record at ${name} with the value "${value}", found none.`),
    );
    expect(shown).toMatchObject({
      status: 'pending',
      verified_at: null,
      last_checked_at: expect.stringMatching(ISO_UTC),
    });
    // The failed check is recorded (last_checked_at, records): a change, so updated_at moves with it
    expect(shown.updated_at).toBe(shown.last_checked_at);
    expect(shown.updated_at > domain.updated_at).toBe(true);
  });

  it('a name with other records but no TXT (NODATA)', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    dns.setTxt(domain.verification.name, []);
    // Act
    const reply = await verify(api, domain.id);
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body.errors.verification[0]).toMatch(/^Expected a TXT record at _ds-challenge\..+, found none\.$/);
  });

  it('TXT values, none of them the token: each is quoted', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    const { name, value } = domain.verification;
    dns.setTxt(name, ['stale-token']);
    // Act
    const reply = await verify(api, domain.id);
    // Assess
    expect(reply.body).toEqual(
      invalid('verification', `Expected a TXT record at ${name} with the value "${value}", found "stale-token".`),
    );
    expect((await api.get(`${DOMAINS}/${domain.id}`)).body.data.status).toBe('pending');
  });

  it('quotes at most five values, each cut at 64 characters', async () => {
    // Prepare
    begin();
    const api = await owner();
    const domain = await store(api, newName());
    dns.setTxt(domain.verification.name, ['x'.repeat(300), 'b', 'c', 'd', 'e', 'f', 'g']);
    // Act
    const reply = await verify(api, domain.id);
    // Assess
    const message = reply.body.errors.verification[0] as string;
    expect(message).toContain(`found "${'x'.repeat(64)}…", "b", "c", "d", "e" and 2 more.`);
    expect(message).not.toContain('x'.repeat(65));
  });
});

describe('DNS that gives no answer: 503 with Retry-After, nothing changed', () => {
  it.each([
    ['never answers', 'silent'],
    ['answers SERVFAIL', 'servfail'],
  ] as const)('a resolver that %s', async (_, mode) => {
    // Prepare
    begin();
    const api = await owner(impatient);
    const domain = await store(api, newName());
    dns.setMode(domain.verification.name, mode);
    // Act
    const started = Date.now();
    const reply = await verify(api, domain.id);
    const elapsed = Date.now() - started;
    // Assess
    expect(reply.status, reply.text).toBe(503);
    // It says DNS was the trouble, and which resolver was asked (the one DNS_RESOLVER names)
    const said =
      mode === 'silent'
        ? `DNS could not be reached: the DNS resolver at ${dns.address} did not answer the lookup of ${domain.verification.name}. Please retry.`
        : `DNS could not answer: the DNS resolver at ${dns.address} answered SERVFAIL to the lookup of ${domain.verification.name}. Please retry.`;
    expect(reply.body).toEqual({ message: said, status: 503 });
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(5_000);
    expect((await api.get(`${DOMAINS}/${domain.id}`)).body.data).toEqual(domain);
  });
});

describe('who holds a name', () => {
  it('lets several owners store a pending name; only an active one refuses new stores', async () => {
    // Prepare
    begin();
    const [alice, bob, carol] = await Promise.all([owner(), owner(), owner()]);
    const name = newName();
    const mine = await store(alice, name);
    // Act
    const pendingElsewhere = await bob.post(DOMAINS, { name });
    publish(dns, mine);
    await verify(alice, mine.id);
    const activeElsewhere = await carol.post(DOMAINS, { name: `HTTPS://${name.toUpperCase()}/` });
    // Assess
    expect(pendingElsewhere.status).toBe(201);
    expect(activeElsewhere.body).toEqual(invalid('name', TAKEN));
    expect((await carol.get(DOMAINS)).body.meta.total).toBe(0);
  });

  it('refuses the owner’s own duplicate, pending or active', async () => {
    // Prepare
    begin();
    const api = await owner();
    const [pending, active] = [newName(), newName()];
    await store(api, pending);
    const domain = await store(api, active);
    publish(dns, domain);
    await verify(api, domain.id);
    // Act
    const replies = await Promise.all([api.post(DOMAINS, { name: pending }), api.post(DOMAINS, { name: active })]);
    // Assess
    for (const reply of replies) expect(reply.body).toEqual(invalid('name', TAKEN));
    expect((await api.get(DOMAINS)).body.meta.total).toBe(2);
  });

  it('refuses to verify a name another owner holds active (422 on name), recording the check', async () => {
    // Prepare
    begin();
    const { bob, his } = await activeForAlicePendingForBob();
    // Act
    const reply = await verify(bob, his.id);
    // Assess
    expect(reply.body).toEqual(invalid('name', TAKEN));
    expect((await bob.get(`${DOMAINS}/${his.id}`)).body.data).toMatchObject({
      status: 'pending',
      last_checked_at: expect.stringMatching(ISO_UTC),
    });
  });

  it('six owners verifying one name at once: exactly one becomes active, the other is told it is taken', async () => {
    // Prepare
    begin();
    const clients = await Promise.all(Array.from({ length: 6 }, () => owner()));
    const name = newName('race');
    const pairs = await Promise.all(clients.map(async (client) => ({ client, domain: await store(client, name) })));
    publish(dns, ...pairs.map((pair) => pair.domain));
    // Act
    const replies = await Promise.all(pairs.map(({ client, domain }) => verify(client, domain.id)));
    // Assess
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    for (const reply of replies.filter((each) => each.status === 422))
      expect(reply.body).toEqual(invalid('name', TAKEN));
    const statuses = await Promise.all(
      pairs.map(async ({ client, domain }) => (await client.get(`${DOMAINS}/${domain.id}`)).body.data.status),
    );
    expect(statuses.filter((status) => status === 'active')).toHaveLength(1);
    expect(statuses.indexOf('active')).toBe(replies.findIndex((reply) => reply.status === 200));
  });

  it('deleting an active domain frees the name: another owner verifies it then', async () => {
    // Prepare
    begin();
    const { alice, bob, hers, his } = await activeForAlicePendingForBob();
    expect((await verify(bob, his.id)).status).toBe(422);
    // Act
    const deleted = await alice.delete(`${DOMAINS}/${hers.id}`);
    const reply = await verify(bob, his.id);
    // Assess
    expect(deleted.status).toBe(200);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.status).toBe('active');
  });

  it('deleting a pending domain frees only its owner’s hold: the active one elsewhere keeps the name', async () => {
    // Prepare
    begin();
    const [alice, bob, carol] = await Promise.all([owner(), owner(), owner()]);
    const name = newName();
    const [hers, his] = [await store(alice, name), await store(bob, name)];
    publish(dns, his);
    await verify(bob, his.id);
    // Act
    const deleted = await alice.delete(`${DOMAINS}/${hers.id}`);
    const again = await alice.post(DOMAINS, { name });
    const elsewhere = await carol.post(DOMAINS, { name });
    // Assess
    expect(deleted.status).toBe(200);
    expect(again.body).toEqual(invalid('name', TAKEN));
    expect(elsewhere.body).toEqual(invalid('name', TAKEN));
    expect((await bob.get(`${DOMAINS}/${his.id}`)).body.data.status).toBe('active');
  });

  it('answers 404 for an unknown id or another owner’s domain, touching nothing', async () => {
    // Prepare
    begin();
    const [alice, bob] = await Promise.all([owner(), owner()]);
    const domain = await store(alice, newName());
    publish(dns, domain);
    // Act
    const unknown = await verify(alice, 999);
    const foreign = await verify(bob, domain.id);
    const notAnId = await alice.request('POST', `${DOMAINS}/abc/verify`);
    // Assess
    for (const reply of [unknown, foreign, notAnId]) expect(reply.body).toEqual(NOT_FOUND);
    expect((await alice.get(`${DOMAINS}/${domain.id}`)).body.data).toEqual(domain);
  });
});

describe('domains stored before verification existed (the old item shape)', () => {
  it('show as active, without a record, and verify as they are', async () => {
    // Prepare
    begin();
    const api = await owner();
    const name = newName('old');
    const id = await storeOldShapeDomain(db, api.owner, name);
    // Act
    const shown = await api.get(`${DOMAINS}/${id}`);
    const listed = await api.get(DOMAINS, { search: 'old-' });
    const verified = await verify(api, id);
    // Assess
    expect(shown.body.data).toEqual({
      id,
      name,
      unicode_name: name,
      idn_warning: null,
      status: 'active',
      // Active since before records were kept, its CNAME never checked: it waits for its DNS as far as the API
      // knows, until the re-check (or the edge sync) looks.
      serving: 'waiting_for_dns',
      serving_error: null,
      records: [{ type: 'CNAME', name, value: 'edge.test', status: 'missing' }],
      verification: null,
      verified_at: null,
      last_checked_at: null,
      index_page: null,
      not_found_page: null,
      created_at: expect.stringMatching(ISO_UTC),
      updated_at: expect.stringMatching(ISO_UTC),
    });
    expect(listed.body.data).toEqual([shown.body.data]);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual(shown.body);
  });

  it('keep their name: neither another owner nor their own can store it again', async () => {
    // Prepare
    begin();
    const [alice, bob] = await Promise.all([owner(), owner()]);
    const name = newName('old');
    await storeOldShapeDomain(db, alice.owner, name);
    // Act
    const own = await alice.post(DOMAINS, { name });
    const other = await bob.post(DOMAINS, { name });
    // Assess
    expect(own.body).toEqual(invalid('name', TAKEN));
    expect(other.body).toEqual(invalid('name', TAKEN));
    expect((await alice.get(DOMAINS)).body.meta.total).toBe(1);
  });

  it('can be updated and deleted; deleting one frees its name for another owner to store and verify', async () => {
    // Prepare
    begin();
    const [alice, bob] = await Promise.all([owner(), owner()]);
    const name = newName('old');
    const id = await storeOldShapeDomain(db, alice.owner, name);
    // Act
    const patched = await alice.patch(`${DOMAINS}/${id}`, { index_page: 'https://www.example.org/' });
    const deleted = await alice.delete(`${DOMAINS}/${id}`);
    const his = await store(bob, name);
    publish(dns, his);
    const verified = await verify(bob, his.id);
    // Assess
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ status: 'active', index_page: 'https://www.example.org/' });
    expect(deleted.body).toEqual({ id, object: 'domain', deleted: true, status: 200 });
    expect((await alice.get(DOMAINS)).body.meta.total).toBe(0);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.data.status).toBe('active');
  });
});

describe("pages on the owner's own active domains: no redirect loop between two of them", () => {
  const onOwn = (field: string, host: string) =>
    `The ${field.replaceAll('_', ' ')} must not point to ${host}, another of your active domains: its visitors would be redirected again (in a loop, if its pages point back here).`;

  /** An active domain of `api`. */
  async function active(api: Client, label = 'own') {
    const domain = await store(api, newName(label));
    publish(dns, domain);
    expect((await verify(api, domain.id)).status).toBe(200);
    return domain;
  }

  it('refuses a store or an update with a page on one of them (422 on the page), storing nothing', async () => {
    // Prepare
    begin();
    const api = await owner();
    const a = await active(api);
    const b = await store(api, newName('b'));
    // Act
    const stored = await api.request('POST', DOMAINS, {
      json: {
        name: newName('c'),
        index_page: `https://${a.name}/`,
        not_found_page: `http://${a.name.toUpperCase()}/404`,
      },
    });
    const updated = await api.request('PATCH', `${DOMAINS}/${b.id}`, {
      json: { not_found_page: `https://${a.name}/x` },
    });
    // Assess
    expect(stored.status, stored.text).toBe(422);
    expect(stored.body.errors).toEqual({
      index_page: [onOwn('index_page', a.name)],
      not_found_page: [onOwn('not_found_page', a.name)],
    });
    expect(updated.body).toEqual(invalid('not_found_page', onOwn('not_found_page', a.name)));
    expect((await api.get(DOMAINS)).body.meta.total).toBe(2);
    expect((await api.get(`${DOMAINS}/${b.id}`)).body.data).toEqual(b);
  });

  it("takes a page on the owner's pending domain, or on another owner's active one", async () => {
    // Prepare
    begin();
    const [api, other] = await Promise.all([owner(), owner()]);
    const pending = await store(api, newName('pending'));
    const theirs = await active(other, 'theirs');
    // Act
    const reply = await api.request('POST', DOMAINS, {
      json: {
        name: newName('mine'),
        index_page: `https://${pending.name}/`,
        not_found_page: `https://${theirs.name}/`,
      },
    });
    // Assess
    expect(reply.status, reply.text).toBe(201);
  });

  it('refuses to verify a domain whose page is on one of them: the second of A→B, B→A stays pending', async () => {
    // Prepare: two pending domains with pages on each other (allowed: neither is served)
    begin();
    const api = await owner();
    const [a, b] = [await store(api, newName('a')), await store(api, newName('b'))];
    const setPage = (domain: { id: number }, host: string) =>
      api.request('PATCH', `${DOMAINS}/${domain.id}`, { json: { index_page: `https://${host}/` } });
    expect((await setPage(a, b.name)).status).toBe(200);
    expect((await setPage(b, a.name)).status).toBe(200);
    publish(dns, a, b);
    // Act
    const first = await verify(api, a.id);
    const second = await verify(api, b.id);
    // Assess: A is served (its page leads to B, which serves nothing); B would redirect back: refused
    expect(first.status, first.text).toBe(200);
    expect(second.body).toEqual(invalid('index_page', onOwn('index_page', a.name)));
    const shown = (await api.get(`${DOMAINS}/${b.id}`)).body.data;
    expect(shown).toMatchObject({ status: 'pending', last_checked_at: expect.stringMatching(ISO_UTC) });
    // Once B's page goes elsewhere, B verifies
    await setPage(b, 'www.example.org');
    expect((await verify(api, b.id)).status).toBe(200);
  });

  it('lets exactly one of two domains with pages on each other become active, verified at once', async () => {
    // Prepare
    begin();
    const api = await owner();
    const [a, b] = [await store(api, newName('a')), await store(api, newName('b'))];
    await api.request('PATCH', `${DOMAINS}/${a.id}`, { json: { index_page: `https://${b.name}/` } });
    await api.request('PATCH', `${DOMAINS}/${b.id}`, { json: { not_found_page: `https://${a.name}/` } });
    publish(dns, a, b);
    // Act
    const replies = await Promise.all([verify(api, a.id), verify(api, b.id)]);
    // Assess: the checks are in the transactions, so the two cannot both pass
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 422]);
    const statuses = await Promise.all([a, b].map(async (d) => (await api.get(`${DOMAINS}/${d.id}`)).body.data.status));
    expect(statuses.sort()).toEqual(['active', 'pending']);
  });
});
