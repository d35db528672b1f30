/**
 * Scopes, expiry, revocation, rotation and last use over the local gateway, which runs the real authorizer and
 * evaluates its (cached) policy on every request as API Gateway does.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import {
  type AuthorizerHandler,
  directAuthorizerEvent,
  lambdaContext,
  loadFunction,
  policyAllows,
} from '#infra/local/lambda.ts';
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from '#lib/auth/data/key-admin.ts';
import type { Scope } from '#lib/kinds.ts';
import { authorizerHandler } from '#lib/routes.ts';
import { config, db } from '#test/support/database.ts';
import type { Client } from '#test/support/http.ts';
import { startTestGateway } from '#test/support/http.ts';
import { putOldShapeKey, secondsFromNow } from '#test/support/keys.ts';
import { keyClient, UNAUTHENTICATED } from './helpers.ts';

const FORBIDDEN = { message: 'This action is unauthorized.', status: 403 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let gateway: Gateway;
/** Caches authorizer answers for `CACHE_SECONDS`, as API Gateway does for its TTL. */
const CACHE_SECONDS = 2;
let cached: Gateway;
beforeAll(async () => {
  [gateway, cached] = await Promise.all([startTestGateway(), startTestGateway({ authCacheTtlSeconds: CACHE_SECONDS })]);
});
afterAll(() => Promise.all([gateway.close(), cached.close()]));

const newOwner = () => `owner-${randomUUID()}`;

/** A key of a new owner with these scopes, and a client that sends it (every reply checked to be JSON). */
async function clientWith(on: Gateway, scopes?: Scope[], options: { expiresAt?: string } = {}) {
  const owner = newOwner();
  const { key, record } = await createApiKey(db, owner, 'e2e', { ...(scopes ? { scopes } : {}), ...options });
  return { owner, key, prefix: record.prefix, api: keyClient(on, key) };
}

/** A space and a domain of this owner, stored with a full key, for the item routes. */
async function itemsOf(owner: string) {
  const { key } = await createApiKey(db, owner, 'writer');
  const writer = keyClient(gateway, key);
  const space = (await writer.post('/api/v1/spaces', { name: `S ${randomUUID().slice(0, 8)}` })).body.data;
  const domain = (await writer.post('/api/v1/domains', { name: `d-${randomUUID().slice(0, 8)}.example.com` })).body
    .data;
  return { spaces: space.id as number, domains: domain.id as number };
}

type Call = { collection: 'spaces' | 'domains'; name: string; send: (api: Client) => Promise<{ status: number }> };

/** Every route and method of one collection, on an item that exists. */
function calls(collection: 'spaces' | 'domains', id: number): { reads: Call[]; writes: Call[] } {
  const base = `/api/v1/${collection}`;
  const body =
    collection === 'spaces' ? { name: `New ${randomUUID().slice(0, 8)}` } : { name: `n-${randomUUID()}.example.com` };
  const change: Record<string, string> =
    collection === 'spaces' ? { color: '4' } : { index_page: 'https://www.example.org/' };
  const call = (name: string, send: Call['send']): Call => ({ collection, name, send });
  return {
    reads: [call('list', (api) => api.get(base)), call('show', (api) => api.get(`${base}/${id}`))],
    writes: [
      call('store', (api) => api.post(base, body)),
      call('update (PUT)', (api) => api.put(`${base}/${id}`, change)),
      call('update (PATCH)', (api) => api.patch(`${base}/${id}`, change)),
      call('delete', (api) => api.delete(`${base}/${id}`)),
    ],
  };
}

describe('scopes', () => {
  it('a read-only key lists and shows (200) but gets 403 JSON on store, update and delete of both collections', async () => {
    // Prepare
    const { owner, api } = await clientWith(gateway, ['domains:read', 'spaces:read']);
    const ids = await itemsOf(owner);
    const spaces = calls('spaces', ids.spaces);
    const domains = calls('domains', ids.domains);
    // Act
    const reads = await Promise.all([...spaces.reads, ...domains.reads].map((call) => call.send(api)));
    const writes = await Promise.all([...spaces.writes, ...domains.writes].map((call) => call.send(api)));
    // Assess
    for (const reply of reads) expect(reply.status).toBe(200);
    for (const reply of writes) expect(reply).toMatchObject({ status: 403, body: FORBIDDEN });
    // Nothing was written: the item is still there, unchanged.
    expect((await api.get(`/api/v1/spaces/${ids.spaces}`)).body.data.color).toBe(1);
    expect((await api.get('/api/v1/spaces')).body.meta.total).toBe(1);
  });

  it('a spaces:* key gets 403 on every domains route, and is served on every spaces route', async () => {
    // Prepare
    const { owner, api } = await clientWith(gateway, ['spaces:read', 'spaces:write']);
    const ids = await itemsOf(owner);
    const domains = calls('domains', ids.domains);
    const spaces = calls('spaces', ids.spaces);
    // Act
    const refused = await Promise.all([...domains.reads, ...domains.writes].map((call) => call.send(api)));
    const served = [];
    for (const call of [...spaces.reads, ...spaces.writes]) served.push(await call.send(api));
    // Assess
    expect(refused).toHaveLength(6);
    for (const reply of refused) expect(reply).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(served.map((reply) => reply.status)).toEqual([200, 200, 201, 200, 200, 200]);
  });

  it('a write-only key cannot read', async () => {
    // Prepare
    const { api } = await clientWith(gateway, ['spaces:write']);
    // Act
    const stored = await api.post('/api/v1/spaces', { name: 'Blind' });
    const listed = await api.get('/api/v1/spaces');
    const shown = await api.get(`/api/v1/spaces/${stored.body.data.id}`);
    // Assess
    expect(stored.status).toBe(201);
    expect(listed).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(shown).toMatchObject({ status: 403, body: FORBIDDEN });
  });

  it('the cached answer is the same whichever route asked first: it covers exactly the key’s routes', async () => {
    // Prepare: a long cache, so that everything after the first request is answered from it.
    const longCache = await startTestGateway({ authCacheTtlSeconds: 300 });
    try {
      const reader = await clientWith(longCache, ['spaces:read']);
      const writer = await clientWith(longCache);
      // Act: the reader's first request is one it may not make; the full key's first is a read.
      const refusedFirst = await reader.api.post('/api/v1/spaces', { name: 'No' });
      const readAfter = await reader.api.get('/api/v1/spaces');
      const readFirst = await writer.api.get('/api/v1/spaces');
      const writeAfter = await writer.api.post('/api/v1/spaces', { name: 'Yes' });
      // Assess
      expect(refusedFirst).toMatchObject({ status: 403, body: FORBIDDEN });
      expect(readAfter.status).toBe(200);
      expect(readFirst.status).toBe(200);
      expect(writeAfter.status).toBe(201);
    } finally {
      await longCache.close();
    }
  });

  it('the authorizer passes the key’s scopes in its context, and a policy of exactly its routes', async () => {
    // Prepare
    const { key, owner, prefix } = await clientWith(gateway, ['domains:read', 'spaces:write']);
    const authorize = await loadFunction<AuthorizerHandler>(authorizerHandler, config, db);
    // Act
    const result = await authorize(directAuthorizerEvent(key), lambdaContext(authorizerHandler));
    // Assess
    expect(result.principalId).toBe(owner);
    expect(result.context).toEqual({ ownerId: owner, scopes: 'domains:read,spaces:write', keyLineage: prefix });
    const arn = (method: string, path: string) => `arn:aws:execute-api:local:000000000000:local/prod/${method}${path}`;
    expect(policyAllows(result, arn('GET', '/api/v1/domains/3'))).toBe(true);
    expect(policyAllows(result, arn('DELETE', '/api/v1/spaces/3'))).toBe(true);
    expect(policyAllows(result, arn('DELETE', '/api/v1/domains/3'))).toBe(false);
    expect(policyAllows(result, arn('GET', '/api/v1/spaces'))).toBe(false);
  });
});

describe('keys written before scopes and expiry', () => {
  it('keep working on every route, with every scope', async () => {
    // Prepare
    const owner = newOwner();
    const { key } = await putOldShapeKey(db, owner);
    const api = keyClient(gateway, key);
    // Act
    const space = await api.post('/api/v1/spaces', { name: 'Legacy' });
    const domain = await api.post('/api/v1/domains', { name: `legacy-${randomUUID().slice(0, 8)}.example.com` });
    const replies = [];
    for (const collection of ['spaces', 'domains'] as const) {
      const id = (collection === 'spaces' ? space : domain).body.data.id;
      const { reads, writes } = calls(collection, id);
      for (const call of [...reads, ...writes]) replies.push((await call.send(api)).status);
    }
    // Assess
    expect([space.status, domain.status]).toEqual([201, 201]);
    expect(replies).toEqual([200, 200, 201, 200, 200, 200, 200, 200, 201, 200, 200, 200]);
  });
});

describe('expiry and revocation', () => {
  it('an expired key gets 401 like an unknown one', async () => {
    // Prepare: a key that expires in a second, used while it is valid.
    const { api } = await clientWith(gateway, undefined, { expiresAt: secondsFromNow(1).toISOString() });
    const before = await api.get('/api/v1/spaces');
    // Act
    await sleep(1_100);
    const after = await api.get('/api/v1/spaces');
    // Assess
    expect(before.status).toBe(200);
    expect(after).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });

  it(`a revoked key gets 401 within the authorizer cache period (${CACHE_SECONDS} s here), not before it`, async () => {
    // Prepare
    const { api, prefix } = await clientWith(cached);
    expect((await api.get('/api/v1/spaces')).status).toBe(200);
    const answered = Date.now(); // the cached answer was made before this, so it expires before answered + TTL
    // Act
    await revokeApiKey(db, prefix);
    const fromCache = await api.get('/api/v1/spaces');
    await sleep(answered + CACHE_SECONDS * 1000 + 100 - Date.now());
    const afterPeriod = await api.get('/api/v1/spaces');
    // Assess: served from the cached answer at most until it expires, refused after.
    expect(fromCache.status).toBe(200);
    expect(afterPeriod).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });
});

describe('rotation', () => {
  it('the new key works at once; the old one keeps working through its grace and stops after it', async () => {
    // Prepare
    const { api: old, prefix, owner } = await clientWith(gateway, ['spaces:read', 'spaces:write']);
    const stored = await old.post('/api/v1/spaces', { name: 'Before rotation' });
    // Act
    const { key } = await rotateApiKey(db, prefix, { graceSeconds: 2 });
    const rotated = keyClient(gateway, key);
    const newAtOnce = await rotated.get(`/api/v1/spaces/${stored.body.data.id}`);
    const newScopes = await rotated.get('/api/v1/domains');
    const oldDuringGrace = await old.get('/api/v1/spaces');
    await sleep(2_100);
    const oldAfterGrace = await old.get('/api/v1/spaces');
    const newAfterGrace = await rotated.get('/api/v1/spaces');
    // Assess
    expect(newAtOnce.status).toBe(200);
    expect(newScopes).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(oldDuringGrace.status).toBe(200);
    expect(oldAfterGrace).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    expect(newAfterGrace.status).toBe(200);
    const states = (await listApiKeys(db, owner)).map((record) => record.state);
    expect(states).toEqual(['expired', 'active']);
  });
});

describe('last use', () => {
  it('is recorded when the authorizer accepts a key, and shown in the listing', async () => {
    // Prepare
    const { api, owner } = await clientWith(gateway);
    const [before] = await listApiKeys(db, owner);
    const start = new Date();
    // Act
    expect((await api.get('/api/v1/spaces')).status).toBe(200);
    // The write normally lands before the answer; under load it may take the authorizer's bounded wait longer.
    let after = (await listApiKeys(db, owner))[0];
    for (let poll = 0; after?.lastUsedAt === null && poll < 20; poll++) {
      await sleep(100);
      after = (await listApiKeys(db, owner))[0];
    }
    // Assess
    expect(before?.lastUsedAt).toBeNull();
    expect(Date.parse(after?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(start.getTime() - 1);
  });
});
