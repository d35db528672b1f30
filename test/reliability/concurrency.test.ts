/**
 * Concurrency over real HTTP (local gateway, DynamoDB Local): uniqueness, id allocation, renames, updates
 * racing deletes and parallel deletes. The consistency checker runs after every test.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';
import { type Client, newClient, type Reply, startTestGateway } from '#test/support/http.ts';
import { countBy, expectConsistent, expectErrorContract, NOT_FOUND, TAKEN } from './helpers.ts';

let gateway: Gateway;
let dns: DnsTestServer;
/** Owners (and domain names) touched by the current test: checked after it. */
let touched: { owners: string[]; domains: string[] };

beforeAll(async () => {
  dns = await startDnsServer();
  gateway = await startTestGateway({ config: configWithDns(dns) });
});
afterAll(async () => {
  await gateway?.close();
  await dns?.close();
});

afterEach(async () => {
  await expectConsistent(touched.owners, { domainNames: touched.domains });
});

async function owner(): Promise<Client> {
  const client = await newClient(gateway);
  touched.owners.push(client.owner);
  return client;
}

const statuses = (replies: Reply[]) => countBy(replies.map((reply) => reply.status));
const times = <T>(count: number, make: (index: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, index) => make(index)));

async function listAll(
  client: Client,
  collection: string,
): Promise<{ total: number; items: { id: number; name: string }[] }> {
  const items: { id: number; name: string }[] = [];
  let reply = await client.get(`/api/v1/${collection}`, { per_page: 100, sort: 'asc' });
  const total = reply.body.meta.total as number;
  for (;;) {
    expect(reply.status).toBe(200);
    items.push(...reply.body.data);
    const next = reply.body.links.next as string | null;
    if (!next) break;
    reply = await client.get(next.slice(next.indexOf('/api/v1')));
  }
  return { total, items };
}

describe('uniqueness under concurrent stores', () => {
  it('50 parallel stores of one space name: exactly one 201, 49 times 422 name taken', async () => {
    // Prepare
    touched = { owners: [], domains: [] };
    const client = await owner();
    // Act
    const replies = await times(50, (index) =>
      client.post('/api/v1/spaces', { name: index % 2 ? 'Launch Plan' : 'launch plan', color: '2' }),
    );
    // Assess
    expect(statuses(replies)).toEqual({ 201: 1, 422: 49 });
    for (const reply of replies.filter((r) => r.status === 422)) {
      expectErrorContract(reply, 422);
      expect(reply.body).toEqual({ message: TAKEN, errors: { name: [TAKEN] }, status: 422 });
    }
    const list = await listAll(client, 'spaces');
    expect(list.total).toBe(1);
    expect(list.items.map((space) => space.id)).toEqual([replies.find((r) => r.status === 201)?.body.data.id]);
  });

  it('one domain name stored by 20 owners, then verified by all in parallel: exactly one owner gets it', async () => {
    // Prepare
    const name = `race-${randomUUID().slice(0, 8)}.example.com`;
    touched = { owners: [], domains: [name] };
    const clients = await times(20, () => owner());
    // Act: a pending domain reserves nothing, so every store succeeds; the verifications race for the name.
    const stored = await Promise.all(clients.map((client) => client.post('/api/v1/domains', { name })));
    const domains = stored.map((reply) => reply.body.data);
    dns.setTxt(
      `_ds-challenge.${name}`,
      domains.map((domain) => domain.verification.value),
    );
    const replies = await Promise.all(
      clients.map((client, index) => client.request('POST', `/api/v1/domains/${domains[index].id}/verify`)),
    );
    // Assess
    expect(statuses(stored)).toEqual({ 201: 20 });
    expect(statuses(replies)).toEqual({ 200: 1, 422: 19 });
    for (const reply of replies.filter((r) => r.status === 422)) {
      expectErrorContract(reply, 422);
      expect(reply.body).toEqual({ message: TAKEN, errors: { name: [TAKEN] }, status: 422 });
    }
    const shown = await Promise.all(
      clients.map(async (client, index) => (await client.get(`/api/v1/domains/${domains[index].id}`)).body.data),
    );
    expect(shown.filter((domain) => domain.status === 'active')).toHaveLength(1);
    expect(shown.findIndex((domain) => domain.status === 'active')).toBe(
      replies.findIndex((reply) => reply.status === 200),
    );
  });

  it('200 parallel stores of distinct names, retried on 503 with their keys: 200 distinct ids, all listed, meta.total 200', async () => {
    // Prepare: one owner's changes commit one at a time, so 200 at once outlast some requests' 4 s budget: those
    // answer 503 with Retry-After, having written nothing, and the client retries with its Idempotency-Key.
    touched = { owners: [], domains: [] };
    const client = await owner();
    const busy: Reply[] = [];
    // Act
    const replies = await times(200, async (index) => {
      const key = randomUUID();
      for (let attempt = 1; ; attempt++) {
        const reply = await client.request('POST', '/api/v1/spaces', {
          form: { name: `Space ${index}` },
          headers: { 'Idempotency-Key': key },
        });
        if (reply.status !== 503 || attempt === 10) return reply;
        busy.push(reply);
        await new Promise((resolve) => setTimeout(resolve, Number(reply.headers.get('retry-after')) * 1000));
      }
    });
    // Assess
    expect(statuses(replies)).toEqual({ 201: 200 });
    for (const reply of busy) expect(reply.headers.get('retry-after')).toBe('1');
    const ids = replies.map((reply) => reply.body.data.id as number);
    expect(new Set(ids).size).toBe(200);
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(1);
    const list = await listAll(client, 'spaces');
    expect(list.total).toBe(200);
    expect(list.items.map((space) => space.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });
});

describe('renames', () => {
  it('two spaces renamed into each other’s names in parallel never end up sharing a name', async () => {
    // Prepare
    touched = { owners: [], domains: [] };
    const client = await owner();
    const a = (await client.post('/api/v1/spaces', { name: 'Alpha' })).body.data.id;
    const b = (await client.post('/api/v1/spaces', { name: 'Beta' })).body.data.id;
    // Act
    const replies = await times(10, (index) =>
      index % 2
        ? client.patch(`/api/v1/spaces/${a}`, { name: 'beta' })
        : client.patch(`/api/v1/spaces/${b}`, { name: 'ALPHA' }),
    );
    // Assess: a swap needs a moment where one name is free, which never comes, so every rename is refused.
    expect(statuses(replies)).toEqual({ 422: 10 });
    const names = (await listAll(client, 'spaces')).items.map((space) => space.name).sort();
    expect(names).toEqual(['Alpha', 'Beta']);
  });

  it('random parallel renames over a small pool of names keep every name unique', async () => {
    // Prepare
    touched = { owners: [], domains: [] };
    const client = await owner();
    const pool = ['Red', 'Green', 'Blue', 'Cyan', 'Magenta', 'Yellow'];
    const ids: number[] = [];
    for (const name of pool.slice(0, 4)) ids.push((await client.post('/api/v1/spaces', { name })).body.data.id);
    // Act: three rounds of eight concurrent renames (random space, random pool name, random case).
    const outcomes: Reply[] = [];
    for (let round = 0; round < 3; round++) {
      outcomes.push(
        ...(await times(8, (index) => {
          const id = ids[(round * 3 + index * 5) % ids.length] as number;
          const name = pool[(round * 7 + index * 3) % pool.length] as string;
          return client.patch(`/api/v1/spaces/${id}`, { name: index % 2 ? name.toUpperCase() : name });
        })),
      );
    }
    // Assess
    for (const reply of outcomes) {
      expect([200, 422]).toContain(reply.status);
      if (reply.status === 422) expect(reply.body.message).toBe(TAKEN);
    }
    const { items, total } = await listAll(client, 'spaces');
    expect(total).toBe(4);
    const folded = items.map((space) => space.name.toLowerCase());
    expect(new Set(folded).size).toBe(4);
    for (const name of folded) expect(pool.map((n) => n.toLowerCase())).toContain(name);
  });
});

describe('updates racing deletes', () => {
  it('an update or rename racing a delete never resurrects the item', async () => {
    // Prepare
    touched = { owners: [], domains: [] };
    const client = await owner();
    const spaces = await times(
      10,
      async (index) => (await client.post('/api/v1/spaces', { name: `Doomed ${index}` })).body.data.id,
    );
    const domainNames = Array.from(
      { length: 5 },
      (_, index) => `doomed-${index}-${randomUUID().slice(0, 8)}.example.org`,
    );
    touched.domains = domainNames;
    const domains = await Promise.all(
      domainNames.map(async (name) => (await client.post('/api/v1/domains', { name })).body.data.id),
    );
    // Act
    const [spaceRaces, domainRaces] = await Promise.all([
      Promise.all(
        spaces.map((id, index) =>
          Promise.all([
            client.delete(`/api/v1/spaces/${id}`),
            client.patch(`/api/v1/spaces/${id}`, { color: '5' }),
            client.put(`/api/v1/spaces/${id}`, { name: `Renamed ${index}` }),
          ]),
        ),
      ),
      Promise.all(
        domains.map((id) =>
          Promise.all([
            client.delete(`/api/v1/domains/${id}`),
            client.patch(`/api/v1/domains/${id}`, { index_page: 'https://elsewhere.example.net/' }),
          ]),
        ),
      ),
    ]);
    // Assess
    for (const [deleted, ...updates] of [...spaceRaces, ...domainRaces]) {
      expect(deleted?.status).toBe(200);
      for (const update of updates) {
        expect([200, 404]).toContain(update.status);
        if (update.status === 404) expect(update.body).toEqual(NOT_FOUND);
      }
    }
    for (const id of spaces) expect((await client.get(`/api/v1/spaces/${id}`)).status).toBe(404);
    for (const id of domains) expect((await client.get(`/api/v1/domains/${id}`)).status).toBe(404);
    expect((await listAll(client, 'spaces')).total).toBe(0);
    expect((await listAll(client, 'domains')).total).toBe(0);
    // The released names are free again.
    expect((await client.post('/api/v1/spaces', { name: 'Renamed 0' })).status).toBe(201);
    expect((await client.post('/api/v1/domains', { name: domainNames[0] as string })).status).toBe(201);
  });

  it('parallel deletes of one item: one 200, the rest 404, counts exact', async () => {
    // Prepare
    touched = { owners: [], domains: [] };
    const client = await owner();
    const name = `gone-${randomUUID().slice(0, 8)}.example.com`;
    touched.domains = [name];
    const keep = (await client.post('/api/v1/spaces', { name: 'Keeper' })).body.data.id;
    const space = (await client.post('/api/v1/spaces', { name: 'Victim' })).body.data.id;
    const domain = (await client.post('/api/v1/domains', { name })).body.data.id;
    // Act
    const [spaceDeletes, domainDeletes] = await Promise.all([
      times(12, () => client.delete(`/api/v1/spaces/${space}`)),
      times(12, () => client.delete(`/api/v1/domains/${domain}`)),
    ]);
    // Assess
    for (const [replies, object, id] of [
      [spaceDeletes, 'space', space],
      [domainDeletes, 'domain', domain],
    ] as const) {
      expect(statuses(replies)).toEqual({ 200: 1, 404: 11 });
      expect(replies.find((reply) => reply.status === 200)?.body).toEqual({ id, object, deleted: true, status: 200 });
      for (const reply of replies.filter((r) => r.status === 404)) expect(reply.body).toEqual(NOT_FOUND);
    }
    const spacesLeft = await listAll(client, 'spaces');
    expect(spacesLeft.total).toBe(1);
    expect(spacesLeft.items.map((s) => s.id)).toEqual([keep]);
    expect((await listAll(client, 'domains')).total).toBe(0);
  });
});
