/**
 * The change feed over HTTP: one event per change, in the order the changes were answered, there by the time
 * the change is answered, none for a write that failed; paging with `after`, `per_page`, `links.next` and
 * `type`; and what a key's read scopes let it see (the authorizer's `scopes` context).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { type ApiHandler, directEvent, lambdaContext, loadFunction } from '#infra/local/lambda.ts';
import { storeDomain } from '#lib/domains/data/domains.ts';
import { storeSpace } from '#lib/spaces/data/spaces.ts';
import { expectConsistent } from '#test/reliability/helpers.ts';
import { config, db } from '#test/support/database.ts';
import { type Client, startTestGateway } from '#test/support/http.ts';
import { ISO_UTC, invalid, newClient } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const EVENTS = '/api/v1/events';
const EVENT_ID = /^\d{12}$/;

/** Every event of the owner, following `links.next` from the start. */
async function feed(api: Client, query: Record<string, string | number> = {}) {
  const events: { id: string; type: string; created_at: string; data: Record<string, unknown> }[] = [];
  let reply = await api.get(EVENTS, { per_page: 100, ...query });
  for (;;) {
    expect(reply.status).toBe(200);
    events.push(...reply.body.data);
    if (!reply.body.meta.has_more) return { events, next: reply.body.links.next as string };
    reply = await api.get(reply.body.links.next.replace(gateway.url, ''));
  }
}

describe.concurrent('the change feed', () => {
  it('has one event per change, oldest first, each carrying the resource as answered (the last state for a delete)', async () => {
    // Prepare
    const api = await newClient(gateway);
    const domainName = `feed-${randomUUID().slice(0, 8)}.example.com`;
    // Act: each change's answer, in order.
    const space = await api.post('/api/v1/spaces', { name: 'Feed', color: '2' });
    const domain = await api.post('/api/v1/domains', { name: domainName });
    const renamed = await api.patch(`/api/v1/spaces/${space.body.data.id}`, { name: 'Fed' });
    const paged = await api.put(`/api/v1/domains/${domain.body.data.id}`, { index_page: 'https://www.example.org/' });
    const shown = await api.get(`/api/v1/spaces/${space.body.data.id}`);
    await api.delete(`/api/v1/spaces/${space.body.data.id}`);
    const { events } = await feed(api);
    // Assess
    expect(events.map((event) => [event.type, event.data])).toEqual([
      ['space.created', space.body.data],
      ['domain.created', domain.body.data],
      ['space.updated', renamed.body.data],
      ['domain.updated', paged.body.data],
      ['space.deleted', shown.body.data],
    ]);
    const ids = events.map((event) => event.id);
    for (const id of ids) expect(id).toMatch(EVENT_ID);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const event of events) expect(event.created_at).toMatch(ISO_UTC);
    await expectConsistent(api.owner, { domainNames: [domainName] });
  });

  it('has the event by the time the change is answered, and none for a write that failed', async () => {
    // Prepare
    const api = await newClient(gateway);
    const stored = await api.post('/api/v1/spaces', { name: 'Only' });
    const before = await feed(api);
    // Act: a taken name, a missing id, a stale If-Match, an invalid body, a no-op update.
    const failures = await Promise.all([
      api.post('/api/v1/spaces', { name: 'only' }),
      api.patch('/api/v1/spaces/999999', { color: '3' }),
      api.request('PATCH', `/api/v1/spaces/${stored.body.data.id}`, {
        form: { color: '3' },
        headers: { 'If-Match': '"7"' },
      }),
      api.request('DELETE', `/api/v1/spaces/${stored.body.data.id}`, { headers: { 'If-Match': '"0"' } }),
      api.patch(`/api/v1/spaces/${stored.body.data.id}`, { color: '9' }),
    ]);
    const unchanged = await api.patch(`/api/v1/spaces/${stored.body.data.id}`, {});
    const after = await feed(api);
    // Assess
    expect(before.events.map((event) => event.type)).toEqual(['space.created']);
    expect(failures.map((reply) => reply.status)).toEqual([422, 404, 412, 412, 422]);
    expect(unchanged.status).toBe(200);
    expect(after.events).toEqual(before.events);
    await expectConsistent(api.owner);
  });

  /** The epoch and event id of a `links.next` cursor. */
  const position = (next: string) => /after=v1\.(\d+\.\d+)\./.exec(next)?.[1];

  it('pages with after and per_page, and links.next always says where to poll next', async () => {
    // Prepare
    const api = await newClient(gateway);
    for (let index = 0; index < 12; index++) await api.post('/api/v1/spaces', { name: `Page ${index}` });
    // Act
    const first = await api.get(EVENTS, { per_page: 10 });
    const second = await api.get(first.body.links.next.replace(gateway.url, ''));
    const caughtUp = await api.get(second.body.links.next.replace(gateway.url, ''));
    await api.post('/api/v1/spaces', { name: 'Later' });
    const polled = await api.get(caughtUp.body.links.next.replace(gateway.url, ''));
    // Assess
    expect(first.body.data).toHaveLength(10);
    expect(first.body.meta).toEqual({ path: `${gateway.url}${EVENTS}`, per_page: 10, has_more: true });
    expect(first.body.links.first).toBe(`${gateway.url}${EVENTS}?per_page=10`);
    // The cursor: the feed's epoch, the last event delivered, and a time before which nothing after it began.
    const tenth = Number(first.body.data[9].id);
    expect(first.body.links.next).toMatch(
      new RegExp(`^${gateway.url}${EVENTS}\\?after=v1\\.\\d+\\.${tenth}\\.\\d+&per_page=10$`),
    );
    expect(second.body.data.map((event: { data: { name: string } }) => event.data.name)).toEqual([
      'Page 10',
      'Page 11',
    ]);
    expect(second.body.meta.has_more).toBe(false);
    expect(caughtUp.body.data).toEqual([]);
    // Caught up, the next poll starts where the last one did (only its time bound moves on).
    expect(position(caughtUp.body.links.next)).toBe(position(second.body.links.next));
    expect(polled.body.data.map((event: { data: { name: string } }) => event.data.name)).toEqual(['Later']);
  });

  it('filters by type prefix, and refuses an after that is not an event id', async () => {
    // Prepare
    const api = await newClient(gateway);
    const name = `typed-${randomUUID().slice(0, 8)}.example.com`;
    await api.post('/api/v1/spaces', { name: 'Typed' });
    const domain = await api.post('/api/v1/domains', { name });
    await api.delete(`/api/v1/domains/${domain.body.data.id}`);
    // Act
    const domains = await feed(api, { type: 'domain.' });
    const deletes = await feed(api, { type: 'domain.deleted' });
    const none = await feed(api, { type: 'nothing' });
    const badAfter = await api.get(EVENTS, { after: 'yesterday' });
    const badPerPage = await api.get(EVENTS, { per_page: 5000 });
    const longType = await api.get(EVENTS, { type: 'x'.repeat(65) });
    // Assess
    expect(domains.events.map((event) => event.type)).toEqual(['domain.created', 'domain.deleted']);
    expect(domains.next).toContain('type=domain.');
    expect(deletes.events.map((event) => event.type)).toEqual(['domain.deleted']);
    expect(none.events).toEqual([]);
    expect(badAfter.status).toBe(422);
    expect(badAfter.body).toEqual(
      invalid('after', 'The after parameter must be a cursor from links.next, or the id of an event.'),
    );
    expect(badPerPage.body.meta.per_page).toBe(10);
    expect(longType.body).toEqual(invalid('type', 'The type parameter must not be greater than 64 characters.'));
  });

  it("shows another owner's events to no one", async () => {
    // Prepare
    const [alice, bob] = await Promise.all([newClient(gateway), newClient(gateway)]);
    await alice.post('/api/v1/spaces', { name: 'Private' });
    // Act
    const bobs = await feed(bob);
    // Assess
    expect(bobs.events).toEqual([]);
  });
});

describe("a key's read scopes", () => {
  const owner = `owner-${randomUUID()}`;
  let list: ApiHandler;

  beforeAll(async () => {
    list = await loadFunction<ApiHandler>('events/list', config, db);
    await storeSpace(db, owner, { name: 'Scoped', color: 1 });
    await storeDomain(db, owner, {
      name: `scoped-${randomUUID().slice(0, 8)}.example.com`,
      indexPage: null,
      notFoundPage: null,
    });
  });

  /** The feed as a key with these scopes sees it (the authorizer passes them in its context). */
  async function typesSeen(scopes: string | undefined, query = '') {
    const event = directEvent({ method: 'GET', url: `${EVENTS}${query}`, owner });
    if (scopes !== undefined) Object.assign(event.requestContext.authorizer ?? {}, { scopes });
    const reply = await list(event, lambdaContext('list-events'));
    return (JSON.parse(reply.body).data as { type: string }[]).map((each) => each.type);
  }

  it.each([
    ['no scopes entry (every scope)', undefined, ['space.created', 'domain.created']],
    ['every scope', 'domains:read,domains:write,spaces:read,spaces:write', ['space.created', 'domain.created']],
    ['spaces:read', 'spaces:read', ['space.created']],
    ['domains:read and spaces:write', 'domains:read, spaces:write', ['domain.created']],
    ['write scopes only', 'domains:write,spaces:write', []],
  ])('%s', async (_name, scopes, expected) => {
    // Act / Assess
    expect(await typesSeen(scopes)).toEqual(expected);
  });

  it('combines them with the type filter', async () => {
    // Act / Assess
    expect(await typesSeen('spaces:read', '?type=domain.')).toEqual([]);
    expect(await typesSeen('domains:read,spaces:read', '?type=space.')).toEqual(['space.created']);
  });
});
