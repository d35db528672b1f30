/**
 * Webhooks end to end: the contract over HTTP (the test gateway), and deliveries made as `npm start` makes
 * them (the feed follower and the webhook worker) to real receivers on this machine, verified with the
 * `standardwebhooks` package. Host names resolve through a test DNS server.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';
import { type Client, clientFor, newClient, type Reply, startTestGateway } from '#test/support/http.ts';
import { putOldShapeKey } from '#test/support/keys.ts';
import {
  closedPort,
  type ReceivedRequest,
  startReceiver,
  type WebhookReceiver,
} from '#test/support/webhook-receiver.ts';
import { type DeliveringStack, eventually, startDeliveringStack } from '#test/support/webhooks.ts';

let dns: DnsTestServer;
let stack: DeliveringStack;
let receiver: WebhookReceiver;
let client: Client;

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
  client = await newClient(stack.gateway);
  return () => receiver.close();
});

const PUBLIC_ADDRESS = '93.184.215.14';
/** A host the test DNS server resolves to a public address (nothing is ever sent there: no test delivers to it). */
function publicHost(): string {
  const host = `hooks-${randomUUID().slice(0, 8)}.example.com`;
  dns.setAddresses(host, [PUBLIC_ADDRESS]);
  return host;
}

async function storeWebhook(body: Record<string, unknown>, as: Client = client): Promise<Reply> {
  return as.request('POST', '/api/v1/webhooks', { json: body });
}

/**
 * A webhook on the test receiver, and its secret. It listens to spaces and domains unless told otherwise: with
 * every event (`*`, the default), its own `webhook.created` would be delivered too.
 */
async function subscribe(body: Record<string, unknown> = {}, as: Client = client) {
  const reply = await storeWebhook({ url: receiver.url(), events: ['space.*', 'domain.*'], ...body }, as);
  expect(reply.status, reply.text).toBe(201);
  return { id: reply.body.data.id as number, secret: reply.body.data.secret as string };
}

const headersOf = (request: ReceivedRequest) => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

/** The event as the receiver got it, after `standardwebhooks` verified it with `secret` (it throws otherwise). */
const verified = (request: ReceivedRequest, secret: string) =>
  new Webhook(secret).verify(request.body, headersOf(request)) as { id: string; type: string; data: { id: number } };

/** The owner's feed, every event, as `GET /events` lists them. */
async function feed(as: Client = client): Promise<{ id: string; type: string }[]> {
  const reply = await as.get('/api/v1/events', { per_page: 100 });
  return reply.body.data;
}

const settle = (ms = 600) => new Promise((resolve) => setTimeout(resolve, ms));

/** The attempts made, without the pending ones (the next attempt of an event still to be delivered). */
// biome-ignore lint/suspicious/noExplicitAny: an answer's body, as the tests read it
const madeAttempts = (data: any[]): any[] => data.filter((each) => !each.pending);

describe('the resource', () => {
  it('is stored with its secret, shown once; show and list never include it', async () => {
    // Act
    const stored = await storeWebhook({ url: `https://${publicHost()}/hook`, description: 'CRM' });
    const id = stored.body.data.id;
    const shown = await client.get(`/api/v1/webhooks/${id}`);
    const listed = await client.get('/api/v1/webhooks');
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.headers.get('location')).toMatch(new RegExp(`/api/v1/webhooks/${id}$`));
    expect(stored.body.data).toMatchObject({ events: ['*'], enabled: true, description: 'CRM', disabled_reason: null });
    const secret = stored.body.data.secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(shown.body.data).not.toHaveProperty('secret');
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).not.toHaveProperty('secret');
    const { secret: _secret, ...withoutSecret } = stored.body.data;
    expect(shown.body.data).toEqual(withoutSecret);
  });

  it('answers a store repeated with its Idempotency-Key with the same webhook and secret', async () => {
    // Prepare
    const key = randomUUID();
    const body = { url: `https://${publicHost()}/hook` };
    // Act
    const first = await client.request('POST', '/api/v1/webhooks', { json: body, headers: { 'Idempotency-Key': key } });
    const again = await client.request('POST', '/api/v1/webhooks', { json: body, headers: { 'Idempotency-Key': key } });
    // Assess
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect((await client.get('/api/v1/webhooks')).body.data).toHaveLength(1);
  });

  it('is updated partially by PATCH and PUT, with If-Match, and deleted like the others', async () => {
    // Prepare
    const { id } = await subscribe({ events: ['space.*'] });
    const etag = (await client.get(`/api/v1/webhooks/${id}`)).headers.get('etag') as string;
    // Act
    const disabled = await client.request('PATCH', `/api/v1/webhooks/${id}`, { json: { enabled: false } });
    const stale = await client.request('PUT', `/api/v1/webhooks/${id}`, {
      json: { description: 'x' },
      headers: { 'If-Match': etag },
    });
    const put = await client.request('PUT', `/api/v1/webhooks/${id}`, { form: { events: 'domain.*,space.created' } });
    const removed = await client.delete(`/api/v1/webhooks/${id}`);
    const gone = await client.get(`/api/v1/webhooks/${id}`);
    // Assess
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ enabled: false, disabled_reason: 'owner', events: ['space.*'] });
    expect(stale.status).toBe(412);
    expect(put.body.data).toMatchObject({ enabled: false, events: ['domain.*', 'space.created'] });
    expect(removed.body).toEqual({ id, object: 'webhook', deleted: true, status: 200 });
    expect(gone.status).toBe(404);
  });

  it('takes a URL of 2,048 characters, however long its stored form, and lists it by name', async () => {
    // Prepare: the host resolves to a public address; the path is long, and longer still percent-encoded.
    const url = `https://${publicHost()}/${'é'.repeat(1_000)}${'p'.repeat(1_000)}`.slice(0, 2_048);
    // Act
    const stored = await storeWebhook({ url, events: ['space.*'] });
    const byName = await client.get('/api/v1/webhooks', { sort_by: 'name', sort: 'asc' });
    // Assess
    expect(stored.status, stored.text).toBe(201);
    expect(stored.body.data.url).toBe(new URL(url).href);
    expect(byName.body.data.map((webhook: { id: number }) => webhook.id)).toEqual([stored.body.data.id]);
  });

  it("is another owner's 404, on every operation", async () => {
    // Prepare
    const { id } = await subscribe();
    const other = await newClient(stack.gateway);
    // Act
    const replies = await Promise.all([
      other.get(`/api/v1/webhooks/${id}`),
      other.request('PATCH', `/api/v1/webhooks/${id}`, { json: { enabled: false } }),
      other.delete(`/api/v1/webhooks/${id}`),
      other.request('POST', `/api/v1/webhooks/${id}/rotate-secret`),
      other.request('POST', `/api/v1/webhooks/${id}/test`),
      other.get(`/api/v1/webhooks/${id}/deliveries`),
    ]);
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await other.get('/api/v1/webhooks')).body.data).toEqual([]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('needs webhooks:read to read and webhooks:write to write; an "all" key has both, a key made today without them neither', async () => {
    // Prepare
    const { id } = await subscribe();
    const keyWith = async (scopes: string[]) =>
      clientFor(stack.gateway, (await createApiKey(db, client.owner, 'scoped', { scopes: scopes as never })).key);
    const reader = await keyWith(['webhooks:read']);
    const spacesOnly = await keyWith(['spaces:read', 'spaces:write']);
    const four = ['domains:read', 'domains:write', 'spaces:read', 'spaces:write'];
    // Made today with every scope there was before webhooks: exactly those.
    const fourToday = await keyWith(four);
    // Stored before webhooks with every scope there was then (the key tool's default), without the marker.
    const allOfOld = clientFor(stack.gateway, (await putOldShapeKey(db, client.owner, 'old', { scopes: four })).key);
    // Act
    const read = await reader.get(`/api/v1/webhooks/${id}/deliveries`);
    const write = await reader.request('PATCH', `/api/v1/webhooks/${id}`, { json: { enabled: false } });
    const none = await spacesOnly.get('/api/v1/webhooks');
    const today = await fourToday.request('PATCH', `/api/v1/webhooks/${id}`, { json: { description: 'new key' } });
    const old = await allOfOld.request('PATCH', `/api/v1/webhooks/${id}`, { json: { description: 'old key' } });
    // Assess
    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
    expect(none.status).toBe(403);
    expect(today.status).toBe(403);
    expect(old.status).toBe(200);
    expect((await client.get('/api/v1/webhooks')).status).toBe(200);
  });
});

describe('what a store refuses (422, on the field)', () => {
  it.each([
    ['no URL', {}, 'url', 'The url field is required.'],
    ['plain http off this machine', { url: 'http://hooks.example.com/hook' }, 'url', 'must use https'],
    ['a private address', { url: 'https://10.0.0.1/hook' }, 'url', 'private network address'],
    ['the metadata address', { url: 'https://169.254.169.254/latest' }, 'url', 'instance metadata'],
    ['a link-local IPv6 address', { url: 'https://[fe80::1]/hook' }, 'url', 'link-local'],
    ['a unique local IPv6 address', { url: 'https://[fd12::1]/hook' }, 'url', 'private network address'],
    ['a user name', { url: 'https://user:pw@hooks.example.com/' }, 'url', 'user name or password'],
    ['an internal name', { url: 'https://db.internal/hook' }, 'url', 'public host'],
    ['a URL too long', { url: `https://hooks.example.com/${'a'.repeat(2_048)}` }, 'url', '2048 characters'],
    [
      'an unknown event type',
      { url: 'https://hooks.example.com/', events: ['space.exploded'] },
      'events',
      'space.exploded',
    ],
    ['an unknown family', { url: 'https://hooks.example.com/', events: ['links.*'] }, 'events', 'links.*'],
    ['no event type', { url: 'https://hooks.example.com/', events: [] }, 'events', 'at least one'],
    [
      'too many patterns',
      { url: 'https://hooks.example.com/', events: Array.from({ length: 33 }, (_, i) => `type.${i}`) },
      'events',
      'more than 32 patterns',
    ],
    ['enabled not a boolean', { url: 'https://hooks.example.com/', enabled: 'yes' }, 'enabled', 'true or false'],
    [
      'a description too long',
      { url: 'https://hooks.example.com/', description: 'd'.repeat(256) },
      'description',
      '255',
    ],
  ])('%s', async (_case, body, field, message) => {
    // Act
    const reply = await storeWebhook(body);
    // Assess
    expect(reply.status, reply.text).toBe(422);
    expect(reply.body.errors[field]?.[0]).toContain(message);
  });

  it('refuses a host that resolves to a private or link-local address, and one that does not resolve', async () => {
    // Prepare
    const hosts = { private: '10.1.2.3', linkLocal: '169.254.10.10' } as const;
    for (const [name, address] of Object.entries(hosts)) dns.setAddresses(`${name}.hooks.example.net`, [address]);
    // Act
    const replies = await Promise.all(
      [...Object.keys(hosts), 'nowhere'].map((name) => storeWebhook({ url: `https://${name}.hooks.example.net/` })),
    );
    // Assess
    expect(replies.map((reply) => reply.body.errors?.url?.[0])).toEqual([
      'The url field must not point to a private network address.',
      'The url field must not point to a link-local address.',
      'The url field must name a host that resolves to a public address.',
    ]);
    expect((await client.get('/api/v1/webhooks')).body.data).toEqual([]);
  });

  it('answers 503 with Retry-After, naming the resolver, when DNS does not answer for the host; nothing changes', async () => {
    // Prepare: the same functions with 200 ms DNS tries, and a host whose server never answers (or fails)
    const impatient = await startTestGateway({
      config: { ...stack.config, ...configWithDns(dns, { DNS_TIMEOUT_MS: '200' }) },
    });
    const silent = `silent-${randomUUID().slice(0, 8)}.hooks.example.net`;
    const failing = `servfail-${randomUUID().slice(0, 8)}.hooks.example.net`;
    dns.setMode(silent, 'silent');
    dns.setMode(failing, 'servfail');
    try {
      const owner = await newClient(impatient);
      const { id } = await subscribe({}, owner);
      // Act
      const started = Date.now();
      const stored = await storeWebhook({ url: `https://${silent}/hook` }, owner);
      const elapsed = Date.now() - started;
      const updated = await owner.request('PATCH', `/api/v1/webhooks/${id}`, { json: { url: `https://${failing}/` } });
      // Assess
      expect(stored.status, stored.text).toBe(503);
      expect(stored.body).toEqual({
        message: `DNS could not be reached: the DNS resolver at ${dns.address} did not answer the lookup of ${silent}. Please retry.`,
        status: 503,
      });
      expect(Number(stored.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(elapsed).toBeLessThan(2_000);
      expect(updated.status, updated.text).toBe(503);
      expect(updated.body.message).toBe(
        `DNS could not answer: the DNS resolver at ${dns.address} answered SERVFAIL to the lookup of ${failing}. Please retry.`,
      );
      expect(Number(updated.headers.get('retry-after'))).toBeGreaterThan(0);
      const listed = (await owner.get('/api/v1/webhooks')).body.data;
      expect(listed.map((webhook: { url: string }) => webhook.url)).toEqual([receiver.url()]);
    } finally {
      await impatient.close();
    }
  });

  it('refuses loopback, by address or by a name resolving to it, where the stack does not allow it (AWS)', async () => {
    // Prepare: a stack as deployed (WEBHOOK_LOCAL_LOOPBACK unset).
    const deployed = await startDeliveringStack(dns, { localLoopback: false });
    dns.setAddresses('loopback.hooks.example.net', ['127.0.0.1']);
    try {
      const owner = await newClient(deployed.gateway);
      // Act
      const replies = await Promise.all(
        [receiver.url(), 'https://127.0.0.1/hook', 'https://[::1]/hook', 'https://loopback.hooks.example.net/'].map(
          (url) => storeWebhook({ url }, owner),
        ),
      );
      // Assess
      expect(replies.map((reply) => reply.body.errors?.url?.[0])).toEqual(
        Array(4).fill('The url field must not point to a loopback address.'),
      );
    } finally {
      await deployed.close();
    }
  });

  it('refuses an update to such a URL, and keeps the webhook as it was', async () => {
    // Prepare
    const { id } = await subscribe();
    dns.setAddresses('moved.hooks.example.net', ['192.168.1.20']);
    // Act
    const reply = await client.request('PATCH', `/api/v1/webhooks/${id}`, {
      json: { url: 'https://moved.hooks.example.net/' },
    });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body.errors.url).toEqual(['The url field must not point to a private network address.']);
    expect((await client.get(`/api/v1/webhooks/${id}`)).body.data.url).toBe(receiver.url());
  });

  it('refuses a webhook beyond the quota, on url', async () => {
    // Prepare: a gateway whose quota is 2.
    const small = await startDeliveringStack(dns, { db: { ...db, maxWebhooksPerOwner: 2 } });
    try {
      const owner = await newClient(small.gateway);
      await storeWebhook({ url: receiver.url('/1') }, owner);
      await storeWebhook({ url: receiver.url('/2') }, owner);
      // Act
      const third = await storeWebhook({ url: receiver.url('/3') }, owner);
      // Assess
      expect(third.status).toBe(422);
      expect(third.body.errors.url).toEqual(['You have reached the maximum of 2 webhooks for this account.']);
    } finally {
      await small.close();
    }
  });
});

describe('deliveries', () => {
  it('POST each matching event, exactly as the feed lists it, signed as standardwebhooks verifies', async () => {
    // Prepare
    const { secret } = await subscribe({ events: ['space.*'] });
    // Act
    const space = (await client.post('/api/v1/spaces', { name: 'Marketing' })).body.data;
    await client.request('PATCH', `/api/v1/spaces/${space.id}`, { json: { color: 3 } });
    await receiver.waitForRequests(2);
    // Assess
    const listed = (await feed()).filter((event) => event.type.startsWith('space.'));
    const bodies = receiver.requests.map((request) => request.body).sort();
    expect(bodies).toEqual(listed.map((event) => JSON.stringify(event)).sort());
    for (const request of receiver.requests) {
      const event = verified(request, secret);
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(new RegExp(`^msg_\\d+_${event.id}$`));
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        receiver.requests[0]?.body ?? '',
        headersOf(receiver.requests[0] as ReceivedRequest),
      ),
    ).toThrow();
  });

  it('go out within about a second of the write', async () => {
    // Prepare
    await subscribe();
    // Act
    const started = Date.now();
    await client.post('/api/v1/spaces', { name: 'Fast' });
    await receiver.waitForRequests(1);
    // Assess: the follower polls every 100 ms here (500 ms under `npm start`).
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('carry only the types a webhook subscribes to, and never another owner’s events', async () => {
    // Prepare
    const { secret } = await subscribe({ events: ['domain.*'] });
    const other = await newClient(stack.gateway);
    // Act
    await client.post('/api/v1/spaces', { name: 'Not delivered' });
    await other.post('/api/v1/domains', { name: `${randomUUID()}.example.org` });
    const domain = (await client.post('/api/v1/domains', { name: `${randomUUID()}.example.org` })).body.data;
    await receiver.waitForRequests(1);
    await settle();
    // Assess
    expect(receiver.requests).toHaveLength(1);
    const event = verified(receiver.requests[0] as ReceivedRequest, secret);
    expect(event.type).toBe('domain.created');
    expect(event.data.id).toBe(domain.id);
  });

  it('are retried after a failure, with the same webhook-id, until a 2xx; the attempts are listed newest first', async () => {
    // Prepare: the first two attempts fail.
    const { id, secret } = await subscribe();
    let calls = 0;
    receiver.respondWith((response) => {
      calls++;
      response.writeHead(calls <= 2 ? 503 : 200).end(calls <= 2 ? 'try later' : 'ok');
    });
    // Act
    await client.post('/api/v1/spaces', { name: 'Retried' });
    await receiver.waitForRequests(3);
    const attempts = await eventually(
      async () => madeAttempts((await client.get(`/api/v1/webhooks/${id}/deliveries`)).body.data),
      (data: { attempt: number; status_code: number; succeeded: boolean }[]) => data.length === 3,
    );
    // Assess
    const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const request of receiver.requests) verified(request, secret);
    expect(attempts.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2, 1]);
    expect(attempts.map((a: { status_code: number }) => a.status_code)).toEqual([200, 503, 503]);
    expect(attempts.map((a: { succeeded: boolean }) => a.succeeded)).toEqual([true, false, false]);
    expect(attempts[1]).toMatchObject({ error: null, response_excerpt: 'try later', event_type: 'space.created' });
  });

  it('are delivered once to a receiver that answers 200 and then sends its body slowly: no duplicate', async () => {
    // Prepare: the status line at once, then a byte a second, never ending
    const { id } = await subscribe({ events: ['space.created'] });
    receiver.respondWith((response) => {
      response.writeHead(200);
      const timer = setInterval(() => response.write('.'), 1_000);
      response.write('.');
      response.on('close', () => clearInterval(timer));
    });
    // Act
    await client.post('/api/v1/spaces', { name: 'Slow body' });
    const attempts = await eventually(
      async () => madeAttempts((await client.get(`/api/v1/webhooks/${id}/deliveries`)).body.data),
      (data: { duration_ms: number }[]) => data.length >= 1,
      15_000,
    );
    await settle(1_500);
    // Assess: one attempt, a success, within the delivery timeout; the event was sent once
    expect(attempts[0]).toMatchObject({ succeeded: true, status_code: 200, error: null, attempt: 1 });
    expect(attempts[0]?.duration_ms).toBeLessThan(5_000);
    expect(receiver.requests).toHaveLength(1);
    expect((await client.get(`/api/v1/webhooks/${id}/deliveries`)).body.data).toHaveLength(1); // none pending
  });

  it('list the next attempt of a failing one as pending, due when its retry is', async () => {
    // Prepare: every attempt fails
    const { id } = await subscribe({ events: ['space.created'] });
    receiver.respondWith((response) => response.writeHead(500).end('no'));
    // Act
    await client.post('/api/v1/spaces', { name: 'Pending retry' });
    const listed = await eventually(
      async () => (await client.get(`/api/v1/webhooks/${id}/deliveries`)).body.data,
      (data: { attempt: number; pending: boolean; created_at: string }[]) =>
        data.some((each) => each.pending && each.attempt === 2),
    );
    // Assess: the pending attempt first, then the one made
    expect(listed[0]).toMatchObject({ attempt: 2, pending: true, status_code: null, error: null, succeeded: false });
    const [next, made] = listed;
    expect(Date.parse(next?.created_at ?? '')).toBeGreaterThan(Date.parse(made?.created_at ?? ''));
    expect(listed[1]).toMatchObject({ attempt: 1, pending: false, status_code: 500 });
  });

  it('say why when no answer came: a refused connection', async () => {
    // Prepare
    const port = await closedPort();
    const reply = await storeWebhook({ url: `http://127.0.0.1:${port}/hook` });
    const id = reply.body.data.id;
    // Act
    await client.post('/api/v1/spaces', { name: 'Nobody listens' });
    const attempts = await eventually(
      async () => madeAttempts((await client.get(`/api/v1/webhooks/${id}/deliveries`)).body.data),
      (data: unknown[]) => data.length >= 1,
    );
    // Assess
    expect(attempts[0]).toMatchObject({ succeeded: false, status_code: null, error: 'refused', attempt: 1 });
  });

  it('stop while a webhook is disabled, and resume with the events after it is enabled again', async () => {
    // Prepare
    const { id, secret } = await subscribe({ events: ['space.created'] });
    await client.request('PATCH', `/api/v1/webhooks/${id}`, { json: { enabled: false } });
    // Act
    await client.post('/api/v1/spaces', { name: 'While disabled' });
    await settle();
    const enabled = await client.request('PATCH', `/api/v1/webhooks/${id}`, { form: { enabled: 'true' } });
    await client.post('/api/v1/spaces', { name: 'After' });
    await receiver.waitForRequests(1);
    await settle();
    // Assess
    expect(enabled.body.data).toMatchObject({ enabled: true, disabled_reason: null });
    expect(receiver.requests.map((request) => (verified(request, secret).data as { name?: string }).name)).toEqual([
      'After',
    ]);
  });

  it('are signed with both secrets for a day after a rotation: either verifies', async () => {
    // Prepare
    const { id, secret: old } = await subscribe();
    // Act
    const rotated = await client.request('POST', `/api/v1/webhooks/${id}/rotate-secret`);
    await client.post('/api/v1/spaces', { name: 'Rotated' });
    await receiver.waitForRequests(1);
    // Assess
    const fresh = rotated.body.data.secret as string;
    expect(rotated.status).toBe(200);
    expect(fresh).not.toBe(old);
    const request = receiver.requests[0] as ReceivedRequest;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(request, fresh).type).toBe('space.created');
    expect(verified(request, old).type).toBe('space.created');
    expect((await client.get(`/api/v1/webhooks/${id}`)).body.data).not.toHaveProperty('secret');
    expect((await feed()).at(-2)?.type).toBe('webhook.updated');
  });

  it('still pending for a deleted webhook are dropped', async () => {
    // Prepare: every attempt fails, so one is always pending.
    const { id } = await subscribe();
    receiver.respondWith((response) => response.writeHead(500).end());
    await client.post('/api/v1/spaces', { name: 'Dropped' });
    await receiver.waitForRequests(1);
    // Act
    await client.delete(`/api/v1/webhooks/${id}`);
    const seen = receiver.requests.length;
    await settle(1_500);
    // Assess: the schedule (3 × 300 ms) would have made more attempts by now.
    expect(receiver.requests.length).toBeLessThanOrEqual(seen + 1);
    expect(stack.worker.pending()).toBe(0);
  });

  it('are listed a page at a time, with a cursor that only this webhook takes', async () => {
    // Prepare: 12 test attempts.
    const { id } = await subscribe();
    const { id: otherId } = await subscribe();
    for (let i = 0; i < 12; i++) await client.request('POST', `/api/v1/webhooks/${id}/test`);
    // Act
    const first = await client.get(`/api/v1/webhooks/${id}/deliveries`, { per_page: 10 });
    const next = await client.get(`/api/v1/webhooks/${id}/deliveries`, {
      per_page: 10,
      cursor: first.body.meta.next_cursor,
    });
    const elsewhere = await client.get(`/api/v1/webhooks/${otherId}/deliveries`, {
      per_page: 10,
      cursor: first.body.meta.next_cursor,
    });
    // Assess
    expect(first.body.data).toHaveLength(10);
    expect(first.body.links.next).toContain('cursor=');
    expect(next.body.data).toHaveLength(2);
    expect(next.body.links.next).toBeNull();
    const times = [...first.body.data, ...next.body.data].map((d: { created_at: string }) => d.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(elsewhere.status).toBe(422);
  });
});

describe('the test event', () => {
  it('is sent at once, signed, and answered with the attempt; not in the feed, not retried', async () => {
    // Prepare: even a disabled webhook that does not subscribe to it.
    const { id, secret } = await subscribe({ events: ['domain.verified'], enabled: false });
    const before = await feed();
    // Act
    const reply = await client.request('POST', `/api/v1/webhooks/${id}/test`);
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      event_type: 'webhook.test',
      attempt: 1,
      status_code: 204,
      succeeded: true,
    });
    const event = verified(receiver.requests[0] as ReceivedRequest, secret) as { type: string; data: unknown };
    expect(event.type).toBe('webhook.test');
    expect(event.data).toEqual((await client.get(`/api/v1/webhooks/${id}`)).body.data);
    expect(await feed()).toEqual(before);
  });

  it('is refused at delivery time when the host now resolves to a private address, before any connection', async () => {
    // Prepare: a public address when stored, a private one now.
    const host = publicHost();
    const { body } = await storeWebhook({ url: `https://${host}/hook` });
    dns.setAddresses(host, ['10.9.8.7']);
    // Act
    const reply = await client.request('POST', `/api/v1/webhooks/${body.data.id}/test`);
    // Assess
    expect(reply.body.data).toMatchObject({ succeeded: false, error: 'destination', status_code: null });
  });
});
