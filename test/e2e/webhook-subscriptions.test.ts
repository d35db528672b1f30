/**
 * What a key may have a webhook deliver, over the local stack as `npm start` composes it (the gateway with the
 * real authorizer, the feed follower and the webhook worker) with real keys and a real receiver: a webhook may
 * subscribe only to events its key could read in the feed; deliveries follow the key's rotation line, carry only
 * what its newest key still reads, and stop (the webhook disabled) once that key is revoked or expired. Webhooks
 * stored before keys were recorded deliver as they did.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey, rotateApiKey } from '#lib/auth/data/key-admin.ts';
import { itemKey } from '#lib/data/keys.ts';
import type { Scope } from '#lib/kinds.ts';
import { storeWebhook } from '#lib/webhooks/data/webhooks.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import type { Client } from '#test/support/http.ts';
import { UNRECORDED_KEY } from '#test/support/keys.ts';
import { startReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';
import { type DeliveringStack, eventually, startDeliveringStack } from '#test/support/webhooks.ts';
import { keyClient } from './helpers.ts';

let dns: DnsTestServer;
let stack: DeliveringStack;
let receiver: WebhookReceiver;
let owner: string;
/** A key with every scope, for the owner's writes and reads. */
let writer: Client;

beforeAll(async () => {
  dns = await startDnsServer();
  stack = await startDeliveringStack(dns);
});
afterAll(async () => {
  await stack.close();
  await dns.close();
});
beforeEach(async () => {
  receiver = await startReceiver();
  owner = `owner-${randomUUID()}`;
  writer = (await keyOf()).api;
  return () => receiver.close();
});

/** A key of the owner's (every scope by default), its prefix and a client that sends it. */
async function keyOf(scopes?: Scope[], options: { expiresAt?: string } = {}) {
  const { key, record } = await createApiKey(db, owner, 'hooks', { ...(scopes ? { scopes } : {}), ...options });
  return { api: keyClient(stack.gateway, key), prefix: record.prefix };
}

const store = (api: Client, body: Record<string, unknown>) =>
  api.request('POST', '/api/v1/webhooks', { json: { url: receiver.url(), ...body } });
const patch = (api: Client, id: number, body: Record<string, unknown>) =>
  api.request('PATCH', `/api/v1/webhooks/${id}`, { json: body });

/** The types the receiver was sent, in order. */
const receivedTypes = () => receiver.requests.map((request) => (JSON.parse(request.body) as { type: string }).type);
const settle = (ms = 700) => new Promise((resolve) => setTimeout(resolve, ms));
const newSpace = () => writer.post('/api/v1/spaces', { name: `S ${randomUUID().slice(0, 8)}` });
const newDomain = () => writer.post('/api/v1/domains', { name: `d-${randomUUID().slice(0, 8)}.example.org` });

const WEBHOOKS_ONLY: Scope[] = ['webhooks:write'];
const DOMAINS_AND_WEBHOOKS: Scope[] = ['domains:read', 'webhooks:write'];

describe('what a webhook may subscribe to', () => {
  it('a webhooks:write key alone may subscribe to nothing: domain.*, space.*, *, webhook.* and no events are 422', async () => {
    // Prepare
    const { api } = await keyOf(WEBHOOKS_ONLY);
    // Act
    const replies = await Promise.all([
      store(api, { events: ['domain.*'] }),
      store(api, { events: ['space.*'] }),
      store(api, { events: ['*'] }),
      store(api, { events: ['webhook.*'] }),
      store(api, {}),
    ]);
    // Assess
    expect(replies.map((reply) => [reply.status, reply.body.errors?.events])).toEqual([
      [422, ['The events field must name only events this key may read: "domain.*" needs domains:read.']],
      [422, ['The events field must name only events this key may read: "space.*" needs spaces:read.']],
      [
        422,
        [
          'The events field must name only events this key may read: "*" needs domains:read, spaces:read and webhooks:read.',
        ],
      ],
      [422, ['The events field must name only events this key may read: "webhook.*" needs webhooks:read.']],
      [
        422,
        [
          'The events field must name events this key may read, and it reads none: it needs domains:read, spaces:read or webhooks:read.',
        ],
      ],
    ]);
    expect((await writer.get('/api/v1/webhooks')).body.data).toEqual([]);
  });

  it('a domains:read,webhooks:write key may subscribe to domain events only; no events are the ones it reads', async () => {
    // Prepare
    const { api } = await keyOf(DOMAINS_AND_WEBHOOKS);
    // Act
    const family = await store(api, { events: ['domain.*'] });
    const one = await store(api, { events: ['domain.verified'] });
    const spaces = await store(api, { events: ['domain.*', 'space.created'] });
    const every = await store(api, { events: ['*'] });
    const absent = await store(api, {});
    const form = await api.request('POST', '/api/v1/webhooks', { form: { url: receiver.url(), events: 'space.*' } });
    // Assess
    expect([family.status, one.status, absent.status]).toEqual([201, 201, 201]);
    expect(absent.body.data.events).toEqual(['domain.*']);
    expect(spaces.body.errors.events).toEqual([
      'The events field must name only events this key may read: "space.created" needs spaces:read.',
    ]);
    expect(every.body.errors.events).toEqual([
      'The events field must name only events this key may read: "*" needs spaces:read and webhooks:read.',
    ]);
    expect(form.status).toBe(422);
    // A key with every read scope keeps `*` as the default.
    expect((await store(writer, {})).body.data.events).toEqual(['*']);
  });

  it('an update that redirects or enables a webhook, or changes its events, is checked the same way', async () => {
    // Prepare: a webhook of every event, stored with a full key; a key that reads domains only.
    const stored = await store(writer, { events: ['*'] });
    const id = stored.body.data.id as number;
    const { api } = await keyOf(DOMAINS_AND_WEBHOOKS);
    // Act
    const toSpaces = await patch(api, id, { events: ['space.*'] });
    const moved = await patch(api, id, { url: receiver.url('/elsewhere') });
    const disabled = await patch(api, id, { enabled: false });
    const enabled = await patch(api, id, { enabled: true });
    const described = await patch(api, id, { description: 'a note' });
    const narrowed = await patch(api, id, { events: ['domain.*'], enabled: true });
    const movedAfter = await patch(api, id, { url: receiver.url('/elsewhere') });
    // Assess
    expect(toSpaces.body.errors.events).toEqual([
      'The events field must name only events this key may read: "space.*" needs spaces:read.',
    ]);
    const webhooksOwn =
      'The events field must name only events this key may read, and the webhook\'s do not ("*" needs spaces:read and webhooks:read): send events this key may read, or use a key that holds those scopes.';
    expect(moved.body.errors.events).toEqual([webhooksOwn]);
    expect(enabled.body.errors.events).toEqual([webhooksOwn]);
    expect([disabled.status, described.status, narrowed.status, movedAfter.status]).toEqual([200, 200, 200, 200]);
    expect(movedAfter.body.data).toMatchObject({
      url: receiver.url('/elsewhere'),
      events: ['domain.*'],
      enabled: true,
      description: 'a note',
    });
  });
});

describe('deliveries and the key behind them', () => {
  /** The webhook as the API shows it now. */
  const shown = async (id: number) => (await writer.get(`/api/v1/webhooks/${id}`)).body.data;

  it('stop once the key is revoked: the webhook is disabled (key_revoked) at its next event, until a key enables it', async () => {
    // Prepare
    const key = await keyOf(['spaces:read', 'webhooks:read', 'webhooks:write']);
    const id = (await store(key.api, { events: ['space.*'] })).body.data.id as number;
    await newSpace();
    await receiver.waitForRequests(1);
    // Act
    await revokeApiKey(db, key.prefix);
    await newSpace();
    const disabled = await eventually(
      () => shown(id),
      (webhook) => webhook.enabled === false,
    );
    await settle();
    const sentWhileRevoked = receiver.requests.length;
    const enabled = await patch(writer, id, { enabled: true });
    await newSpace();
    await receiver.waitForRequests(2);
    // Assess
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'key_revoked' });
    expect(sentWhileRevoked).toBe(1);
    const feed = (await writer.get('/api/v1/events', { per_page: 100, type: 'webhook.' })).body.data;
    expect(feed.map((event: { type: string }) => event.type)).toContain('webhook.disabled');
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null });
    expect(receivedTypes()).toEqual(['space.created', 'space.created']);
  });

  it('stop once the key expires (key_expired)', async () => {
    // Prepare: a key that expires in 1.5 s.
    const key = await keyOf(undefined, { expiresAt: new Date(Date.now() + 1_500).toISOString() });
    const id = (await store(key.api, { events: ['space.*'] })).body.data.id as number;
    // Act
    await settle(1_600);
    await newSpace();
    const disabled = await eventually(
      () => shown(id),
      (webhook) => webhook.enabled === false,
    );
    // Assess
    expect(disabled.disabled_reason).toBe('key_expired');
    expect(receiver.requests).toHaveLength(0);
  });

  it('follow a rotation past the old key’s grace, and carry only what a narrowed key still reads', async () => {
    // Prepare
    const first = await keyOf();
    const id = (await store(first.api, { events: ['space.*', 'domain.*'] })).body.data.id as number;
    // Act: the old key stops at once; then the new one is narrowed to domains on its own rotation.
    const second = await rotateApiKey(db, first.prefix, { graceSeconds: 0 });
    await newSpace();
    await receiver.waitForRequests(1);
    await rotateApiKey(db, second.record.prefix, {
      graceSeconds: 0,
      scopes: ['domains:read', 'domains:write', 'webhooks:read', 'webhooks:write'],
    });
    await newSpace();
    await newDomain();
    await receiver.waitForRequests(2);
    await settle();
    // Assess
    expect(receivedTypes()).toEqual(['space.created', 'domain.created']);
    expect(await shown(id)).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('of a webhook stored before keys were recorded go on whatever its key became, until a key directs it', async () => {
    // Prepare: the old shape, stored with no key recorded.
    const { result } = await storeWebhook(
      db,
      owner,
      { name: receiver.url(), events: ['space.*'], enabled: true, description: null },
      UNRECORDED_KEY,
    );
    const { Item } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: itemKey(owner, 'webhook', result.id), ConsistentRead: true }),
    );
    const { api, prefix } = await keyOf(['spaces:read', 'webhooks:write']);
    // Act
    await newSpace();
    await receiver.waitForRequests(1);
    const directed = await patch(api, result.id, { events: ['space.created'] });
    await revokeApiKey(db, prefix);
    await newSpace();
    const disabled = await eventually(
      () => shown(result.id),
      (webhook) => webhook.enabled === false,
    );
    // Assess
    expect(Item).not.toHaveProperty('keyLineage');
    expect(directed.status).toBe(200);
    expect(disabled.disabled_reason).toBe('key_revoked');
    expect(receivedTypes()).toEqual(['space.created']);
  });
});
