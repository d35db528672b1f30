/**
 * Conditional requests (RFC 9110) over HTTP: every resource's version is its strong ETag; If-None-Match on a
 * show answers 304 without a body; If-Match on PUT, PATCH and DELETE answers 412 and changes nothing when it
 * does not match; items stored before versions existed are version 0 and keep working.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { guardItem } from '#lib/data/collection.ts';
import {
  counterKey,
  domainNameGuardKey,
  foldName,
  itemKey,
  nameSortKey,
  sequenceKey,
  spaceNameGuardKey,
} from '#lib/data/keys.ts';
import { expectConsistent } from '#test/reliability/helpers.ts';
import { db } from '#test/support/database.ts';
import { type Client, type Reply, startTestGateway } from '#test/support/http.ts';
import { newClient } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const PRECONDITION_FAILED = { message: 'The resource has been modified.', status: 412 };
const STRONG_ETAG = /^"\d+"$/;
const etagOf = (reply: Reply) => reply.headers.get('etag') as string;

async function space(api: Client) {
  const stored = await api.post('/api/v1/spaces', { name: `Etag ${randomUUID().slice(0, 8)}`, color: '2' });
  return { path: `/api/v1/spaces/${stored.body.data.id}`, stored };
}

const eventTypes = async (api: Client) =>
  (await api.get('/api/v1/events')).body.data.map((event: { type: string }) => event.type);

describe.concurrent('ETag', () => {
  it('is a strong validator on store, show and update, and changes with every change', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    // Act
    const shown = await api.get(path);
    const updated = await api.patch(path, { color: '3' });
    const again = await api.patch(path, { color: '4' });
    const shownAfter = await api.get(path);
    // Assess
    expect(etagOf(stored)).toMatch(STRONG_ETAG);
    expect(etagOf(shown)).toBe(etagOf(stored));
    expect(etagOf(updated)).not.toBe(etagOf(stored));
    expect(etagOf(again)).not.toBe(etagOf(updated));
    expect(etagOf(shownAfter)).toBe(etagOf(again));
  });
});

describe.concurrent('If-None-Match on a show', () => {
  it('answers 304 without a body while unchanged, 200 once changed', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    const etag = etagOf(stored);
    // Act
    const unchanged = await api.request('GET', path, { headers: { 'If-None-Match': etag } });
    const weak = await api.request('GET', path, { headers: { 'If-None-Match': `W/${etag}` } });
    const listed = await api.request('GET', path, { headers: { 'If-None-Match': `"99", ${etag}` } });
    const any = await api.request('GET', path, { headers: { 'If-None-Match': '*' } });
    await api.patch(path, { color: '5' });
    const changed = await api.request('GET', path, { headers: { 'If-None-Match': etag } });
    // Assess
    for (const reply of [unchanged, weak, listed, any]) {
      expect(reply.status).toBe(304);
      expect(reply.text).toBe('');
      expect(etagOf(reply)).toBe(etag);
    }
    expect(changed.status).toBe(200);
    expect(changed.body.data.color).toBe(5);
    expect(etagOf(changed)).not.toBe(etag);
  });

  it('is a 404 for an id the owner does not have, whatever the header', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await api.request('GET', '/api/v1/domains/424242', { headers: { 'If-None-Match': '*' } });
    // Assess
    expect(reply.status).toBe(404);
  });
});

describe.concurrent('If-Match on a change', () => {
  it.each([
    ['PATCH', { color: '6' }],
    ['PUT', { name: 'Elsewhere' }],
    ['DELETE', undefined],
  ] as const)('%s with a stale ETag: 412, and nothing changes (no event either)', async (method, form) => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    const stale = etagOf(stored);
    await api.patch(path, { color: '4' });
    const before = await api.get(path);
    // Act
    const reply = await api.request(method, path, { ...(form ? { form } : {}), headers: { 'If-Match': stale } });
    // Assess
    expect(reply.status).toBe(412);
    expect(reply.body).toEqual(PRECONDITION_FAILED);
    expect(await api.get(path)).toMatchObject({ status: 200, body: before.body });
    expect(await eventTypes(api)).toEqual(['space.created', 'space.updated']);
    await expectConsistent(api.owner);
  });

  it('applies the change when it matches: the current ETag, one of a list, or *', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    // Act
    const first = await api.request('PATCH', path, { form: { color: '3' }, headers: { 'If-Match': etagOf(stored) } });
    const listed = await api.request('PATCH', path, {
      form: { color: '4' },
      headers: { 'If-Match': `"123", ${etagOf(first)}` },
    });
    const any = await api.request('PUT', path, { form: { color: '5' }, headers: { 'If-Match': '*' } });
    const gone = await api.request('DELETE', path, { headers: { 'If-Match': etagOf(any) } });
    // Assess
    expect([first.status, listed.status, any.status, gone.status]).toEqual([200, 200, 200, 200]);
    expect(any.body.data.color).toBe(5);
    expect((await api.get(path)).status).toBe(404);
  });

  it('compares strongly: a weak ETag or a malformed value never matches', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    // Act
    const weak = await api.request('PATCH', path, {
      form: { color: '3' },
      headers: { 'If-Match': `W/${etagOf(stored)}` },
    });
    const malformed = await api.request('PATCH', path, { form: { color: '3' }, headers: { 'If-Match': '1' } });
    // Assess
    expect(weak.status).toBe(412);
    expect(malformed.status).toBe(412);
  });

  it('checks a change that changes nothing too, and answers 404 for a missing id', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path } = await space(api);
    // Act
    const noop = await api.request('PATCH', path, { form: {}, headers: { 'If-Match': '"42"' } });
    const missing = await api.request('DELETE', '/api/v1/spaces/987654', { headers: { 'If-Match': '*' } });
    // Assess
    expect(noop.status).toBe(412);
    expect(missing.status).toBe(404);
  });

  it('lets exactly one of two clients editing the same version win; the other gets 412', async () => {
    // Prepare
    const api = await newClient(gateway);
    const name = `edit-${randomUUID().slice(0, 8)}.example.com`;
    const stored = await api.post('/api/v1/domains', { name });
    const path = `/api/v1/domains/${stored.body.data.id}`;
    const etag = etagOf(stored);
    // Act: both read the same version, then write in parallel.
    const replies = await Promise.all(
      ['https://one.example.org/', 'https://two.example.org/'].map((index_page) =>
        api.request('PATCH', path, { form: { index_page }, headers: { 'If-Match': etag } }),
      ),
    );
    // Assess
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
    const winner = replies.find((reply) => reply.status === 200) as Reply;
    expect((await api.get(path)).body).toEqual(winner.body);
    await expectConsistent(api.owner, { domainNames: [name] });
  });
});

describe.concurrent('If-None-Match on a change', () => {
  it.each([
    ['PATCH', { color: '6' }],
    ['PUT', { name: 'Elsewhere' }],
    ['DELETE', undefined],
  ] as const)('%s with * (the resource exists): 412, and nothing changes (no event either)', async (method, form) => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    // Act
    const reply = await api.request(method, path, { ...(form ? { form } : {}), headers: { 'If-None-Match': '*' } });
    // Assess
    expect(reply.status).toBe(412);
    expect(reply.body).toEqual(PRECONDITION_FAILED);
    expect(await api.get(path)).toMatchObject({ status: 200, body: stored.body });
    expect(await eventTypes(api)).toEqual(['space.created']);
    await expectConsistent(api.owner);
  });

  it('refuses a change to a version it names (weak comparison), applies one to another version', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    // Act
    const current = await api.request('PATCH', path, {
      form: { color: '3' },
      headers: { 'If-None-Match': etagOf(stored) },
    });
    const weak = await api.request('PATCH', path, {
      form: { color: '3' },
      headers: { 'If-None-Match': `W/${etagOf(stored)}` },
    });
    const other = await api.request('PATCH', path, { form: { color: '3' }, headers: { 'If-None-Match': '"7", "8"' } });
    const both = await api.request('PATCH', path, {
      form: { color: '5' },
      headers: { 'If-Match': etagOf(other), 'If-None-Match': etagOf(stored) },
    });
    // Assess
    expect([current.status, weak.status, other.status, both.status]).toEqual([412, 412, 200, 200]);
    expect(both.body.data.color).toBe(5);
  });

  it('answers 404 for an id the owner does not have, and is not evaluated on a store', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const missing = await api.request('PATCH', '/api/v1/spaces/987654', {
      form: { color: '2' },
      headers: { 'If-None-Match': '*' },
    });
    const store = await api.request('POST', '/api/v1/spaces', {
      form: { name: 'New' },
      headers: { 'If-None-Match': '*' },
    });
    // Assess
    expect(missing.status).toBe(404);
    expect(store.status).toBe(201);
  });
});

describe.concurrent('an update that changes nothing', () => {
  it.each([
    ['PATCH, the same color', 'PATCH', { color: '2' }],
    ['PUT, the same name and color', 'PUT', { name: 'Same', color: '2' }],
    ['PATCH as JSON, the same name', 'PATCH', { json: { name: ' Same ' } }],
    ['PATCH, no field', 'PATCH', {}],
  ] as const)('(%s) answers 200 with the same version and updated_at, and no event', async (_, method, body) => {
    // Prepare
    const api = await newClient(gateway);
    const stored = await api.post('/api/v1/spaces', { name: 'Same', color: '2' });
    const path = `/api/v1/spaces/${stored.body.data.id}`;
    // Act
    const reply = await api.request(method, path, 'json' in body ? { json: body.json } : { form: body });
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(stored.body);
    expect(etagOf(reply)).toBe(etagOf(stored));
    expect(await eventTypes(api)).toEqual(['space.created']);
  });

  it('is a change when the name differs in case, or a domain page changes; the same pages are none', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path, stored } = await space(api);
    const domain = await api.post('/api/v1/domains', {
      name: `same-${randomUUID().slice(0, 8)}.example.com`,
      index_page: 'https://www.example.org/',
    });
    const domainPath = `/api/v1/domains/${domain.body.data.id}`;
    // Act
    const renamed = await api.patch(path, { name: stored.body.data.name.toUpperCase() });
    const samePages = await api.patch(domainPath, { index_page: 'https://WWW.example.org', not_found_page: '' });
    const otherPage = await api.patch(domainPath, { not_found_page: 'https://www.example.org/404' });
    // Assess
    expect(etagOf(renamed)).toBe('"2"');
    expect(etagOf(samePages)).toBe('"1"');
    expect(samePages.body.data.updated_at).toBe(domain.body.data.updated_at);
    expect(etagOf(otherPage)).toBe('"2"');
    expect(await eventTypes(api)).toEqual(['space.created', 'domain.created', 'space.updated', 'domain.updated']);
  });

  it('records nothing for its Idempotency-Key: the key then serves a change', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { path } = await space(api);
    const key = randomUUID();
    // Act
    const noop = await api.request('PATCH', path, { form: { color: '2' }, headers: { 'Idempotency-Key': key } });
    const change = await api.request('PATCH', path, { form: { color: '3' }, headers: { 'Idempotency-Key': key } });
    // Assess
    expect([noop.status, change.status]).toEqual([200, 200]);
    expect(noop.headers.get('idempotent-replayed')).toBeNull();
    expect(change.headers.get('idempotent-replayed')).toBeNull();
    expect(change.body.data.color).toBe(3);
  });
});

describe('items stored before versions existed', () => {
  let api: Client;
  const spaceId = 1;
  const domainId = 1;
  const domainName = `legacy-${randomUUID().slice(0, 8)}.example.com`;

  beforeAll(async () => {
    // Prepare: a space and a domain written in the old shape (no version), with their guards, counters, sequences.
    api = await newClient(gateway);
    const owner = api.owner;
    const at = '2025-01-01T00:00:00.000Z';
    const put = (Item: Record<string, unknown>) => db.client.send(new PutCommand({ TableName: db.tableName, Item }));
    await put({
      ...itemKey(owner, 'space', spaceId),
      lsi1sk: nameSortKey('space', 'legacy', spaceId),
      kind: 'space',
      id: spaceId,
      name: 'Legacy',
      fold: foldName('Legacy'),
      color: 2,
      createdAt: at,
      updatedAt: at,
    });
    await put(guardItem(spaceNameGuardKey(owner, 'legacy'), owner, 'space', spaceId));
    await put({
      ...itemKey(owner, 'domain', domainId),
      lsi1sk: nameSortKey('domain', domainName, domainId),
      kind: 'domain',
      id: domainId,
      name: domainName,
      fold: domainName,
      indexPage: null,
      notFoundPage: null,
      createdAt: at,
      updatedAt: at,
    });
    await put(guardItem(domainNameGuardKey(domainName), owner, 'domain', domainId));
    for (const kind of ['space', 'domain'] as const) {
      await put({ ...counterKey(owner, kind), total: 1 });
      await put({ ...sequenceKey(owner, kind), last: 1 });
    }
  });

  it('are version 0: ETag "0", If-None-Match and If-Match work, and their first change makes them 1', async () => {
    // Act
    const shown = await api.get(`/api/v1/spaces/${spaceId}`);
    const notModified = await api.request('GET', `/api/v1/spaces/${spaceId}`, { headers: { 'If-None-Match': '"0"' } });
    const stale = await api.request('PATCH', `/api/v1/spaces/${spaceId}`, {
      form: { color: '4' },
      headers: { 'If-Match': '"1"' },
    });
    const updated = await api.request('PATCH', `/api/v1/spaces/${spaceId}`, {
      form: { color: '4' },
      headers: { 'If-Match': '"0"' },
    });
    const domain = await api.put(`/api/v1/domains/${domainId}`, { not_found_page: 'https://www.example.org/404' });
    // Assess
    expect(shown.body.data).toMatchObject({ id: spaceId, name: 'Legacy', color: 2 });
    expect(etagOf(shown)).toBe('"0"');
    expect(notModified.status).toBe(304);
    expect(stale.status).toBe(412);
    expect(updated.status).toBe(200);
    expect(etagOf(updated)).toBe('"1"');
    expect(domain.status).toBe(200);
    expect(etagOf(domain)).toBe('"1"');
    expect(await eventTypes(api)).toEqual(['space.updated', 'domain.updated']);
    await expectConsistent(api.owner, { domainNames: [domainName] });
  });

  it('are deleted with their event, and their ids are never reused', async () => {
    // Act
    const stored = await api.post('/api/v1/spaces', { name: 'Newer' });
    const gone = await api.delete(`/api/v1/domains/${domainId}`);
    // Assess
    expect(stored.body.data.id).toBe(spaceId + 1);
    expect(gone.status).toBe(200);
    expect((await eventTypes(api)).slice(-2)).toEqual(['space.created', 'domain.deleted']);
    await expectConsistent(api.owner, { domainNames: [domainName] });
  });
});
