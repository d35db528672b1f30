/**
 * `Idempotency-Key` on POST over HTTP: a repeat of the request answers the recorded answer with
 * `Idempotent-Replayed: true` and writes nothing; the same key with another request is a 422; keys are the
 * owner's, 1–255 printable ASCII characters, and only answers that wrote something are recorded.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { type ApiHandler, directEvent, lambdaContext, loadFunction } from '#infra/local/lambda.ts';
import { idempotencyKey } from '#lib/data/keys.ts';
import { expectConsistent } from '#test/reliability/helpers.ts';
import { config, db } from '#test/support/database.ts';
import { type Client, type Reply, startTestGateway } from '#test/support/http.ts';
import { invalid, newClient } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const SPACES = '/api/v1/spaces';
const REUSED = 'This Idempotency-Key was already used for another request.';
const INVALID = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.';

const store = (api: Client, key: string, form: Record<string, string>, path = SPACES) =>
  api.request('POST', path, { form, headers: { 'Idempotency-Key': key } });
const replayed = (reply: Reply) => reply.headers.get('idempotent-replayed');

async function spaces(api: Client) {
  return (await api.get(SPACES, { per_page: 100 })).body;
}

describe.concurrent('Idempotency-Key', () => {
  it('answers a repeat with the recorded answer, marked as a replay, and stores nothing again', async () => {
    // Prepare
    const api = await newClient(gateway);
    const key = randomUUID();
    // Act
    const first = await store(api, key, { name: 'Once', color: '3' });
    await api.patch(`${SPACES}/${first.body.data.id}`, { color: '4' });
    const repeat = await store(api, key, { name: 'Once', color: '3' });
    // Assess: the answer of the first request, as it was (the space has changed since).
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    expect(repeat.status).toBe(201);
    expect(replayed(repeat)).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect(repeat.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await spaces(api)).meta.total).toBe(1);
    const events = (await api.get('/api/v1/events')).body.data.map((event: { type: string }) => event.type);
    expect(events).toEqual(['space.created', 'space.updated']);
    await expectConsistent(api.owner);
  });

  it('uses up no id on a replay: three replays, then the next store takes the next id', async () => {
    // Prepare
    const api = await newClient(gateway);
    const key = randomUUID();
    const domainKey = randomUUID();
    const domain = { name: `replayed-${randomUUID().slice(0, 8)}.example.com` };
    // Act
    const first = await store(api, key, { name: 'Replayed' });
    const replays = [];
    for (let count = 0; count < 3; count++) replays.push(await store(api, key, { name: 'Replayed' }));
    const reused = await store(api, key, { name: 'Another body' });
    const next = await api.post(SPACES, { name: 'Next' });
    const firstDomain = await store(api, domainKey, domain, '/api/v1/domains');
    await store(api, domainKey, domain, '/api/v1/domains');
    const nextDomain = await api.post('/api/v1/domains', { name: `next-${randomUUID().slice(0, 8)}.example.com` });
    // Assess: the replays and the refused reuse took nothing; ids go on by one.
    expect(first.body.data.id).toBe(1);
    expect(replays.map((reply) => [reply.status, replayed(reply), reply.body.data.id])).toEqual(
      Array(3).fill([201, 'true', 1]),
    );
    expect(reused.status).toBe(422);
    expect(next.body.data.id).toBe(2);
    expect([firstDomain.body.data.id, nextDomain.body.data.id]).toEqual([1, 2]);
    await expectConsistent(api.owner);
  });

  it('refuses the same key with another body or another path: 422 on Idempotency-Key', async () => {
    // Prepare
    const api = await newClient(gateway);
    const key = randomUUID();
    await store(api, key, { name: 'First' });
    // Act
    const otherBody = await store(api, key, { name: 'Second' });
    const otherPath = await store(
      api,
      key,
      { name: `other-${randomUUID().slice(0, 8)}.example.com` },
      '/api/v1/domains',
    );
    // Assess
    for (const reply of [otherBody, otherPath]) {
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual(invalid('Idempotency-Key', REUSED));
    }
    expect((await spaces(api)).data.map((space: { name: string }) => space.name)).toEqual(['First']);
  });

  it("keeps keys per owner: another owner's request with the same key is its own", async () => {
    // Prepare
    const [alice, bob] = await Promise.all([newClient(gateway), newClient(gateway)]);
    const key = randomUUID();
    // Act
    const hers = await store(alice, key, { name: 'Shared key' });
    const his = await store(bob, key, { name: 'Shared key' });
    // Assess
    expect(replayed(hers)).toBeNull();
    expect(replayed(his)).toBeNull();
    expect((await spaces(bob)).meta.total).toBe(1);
  });

  it('records only answers that wrote something: after a 422 the same key can be used for the corrected request', async () => {
    // Prepare
    const api = await newClient(gateway);
    const key = randomUUID();
    const taken = await api.post(SPACES, { name: 'Taken' });
    // Act
    const invalidBody = await store(api, key, { name: '' });
    const nameTaken = await store(api, key, { name: 'taken' });
    await api.delete(`${SPACES}/${taken.body.data.id}`);
    const corrected = await store(api, key, { name: 'taken' });
    // Assess
    expect(invalidBody.status).toBe(422);
    expect(nameTaken.status).toBe(422);
    expect(corrected.status).toBe(201);
    expect(replayed(corrected)).toBeNull();
  });

  it('accepts 1 to 255 printable ASCII characters, and answers 422 on Idempotency-Key otherwise', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const longest = await store(api, `~${'k'.repeat(254)}`, { name: 'Longest key' });
    const tooLong = await store(api, 'k'.repeat(256), { name: 'Too long' });
    const empty = await store(api, '', { name: 'Empty key' });
    // Assess
    expect(longest.status).toBe(201);
    for (const reply of [tooLong, empty]) {
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual(invalid('Idempotency-Key', INVALID));
    }
    expect((await spaces(api)).meta.total).toBe(1);
  });

  it('creates one item from 20 parallel requests with one key; every one answers the same 201', async () => {
    // Prepare
    const api = await newClient(gateway);
    const key = randomUUID();
    // Act
    const replies = await Promise.all(Array.from({ length: 20 }, () => store(api, key, { name: 'Parallel' })));
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(201));
    for (const reply of replies) expect(reply.body).toEqual(replies[0]?.body);
    expect(replies.filter((reply) => replayed(reply) === 'true')).toHaveLength(19);
    expect((await spaces(api)).data).toEqual([replies[0]?.body.data]);
    const events = (await api.get('/api/v1/events')).body.data;
    expect(events).toHaveLength(1);
    await expectConsistent(api.owner);
  });

  it('works for domains alike, and without a key a repeat is a new request (422 name taken), as before', async () => {
    // Prepare
    const api = await newClient(gateway);
    const key = randomUUID();
    const name = `retry-${randomUUID().slice(0, 8)}.example.com`;
    // Act
    const first = await store(api, key, { name }, '/api/v1/domains');
    const repeat = await store(api, key, { name }, '/api/v1/domains');
    const keyless = await api.post('/api/v1/domains', { name });
    // Assess
    expect(repeat.body).toEqual(first.body);
    expect(replayed(repeat)).toBe('true');
    expect(keyless.status).toBe(422);
    await expectConsistent(api.owner, { domainNames: [name] });
  });
});

describe('idempotency records', () => {
  const owner = `owner-${randomUUID()}`;
  let storeHandler: ApiHandler;
  beforeAll(async () => {
    storeHandler = await loadFunction<ApiHandler>('spaces/store', config, db);
  });
  const direct = (key: string, name: string) =>
    storeHandler(
      directEvent({ method: 'POST', url: SPACES, owner, form: { name }, headers: { 'Idempotency-Key': key } }),
      lambdaContext('store-space'),
    );

  it('refuses a key with a control or non-ASCII character (the HTTP clients refuse to send one)', async () => {
    // Act
    const replies = await Promise.all(['tab\there', 'caf\u00e9', 'nul\u0000'].map((key) => direct(key, 'Refused')));
    // Assess
    for (const reply of replies) {
      expect(reply.statusCode).toBe(422);
      expect(JSON.parse(reply.body)).toEqual(invalid('Idempotency-Key', INVALID));
    }
  });

  it('hold the write’s result, and a record of the answer itself (written before, kept 24 hours) still replays it', async () => {
    // Prepare: the record the first request left, and one of the shape written before records held results
    // (the HTTP answer itself), for the same request under another key.
    const key = randomUUID();
    const first = await direct(key, 'Recorded');
    const { Item: recorded } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: idempotencyKey(owner, key) }),
    );
    const oldKey = randomUUID();
    const answer = { data: { id: 999, name: 'As answered then' } };
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: {
          ...idempotencyKey(owner, oldKey),
          kind: 'idempotency',
          fingerprint: recorded?.fingerprint,
          statusCode: 201,
          body: JSON.stringify(answer),
          headers: { ETag: '"1"' },
          createdAt: new Date().toISOString(),
          ttl: Math.floor(Date.now() / 1000) + 3_600,
        },
      }),
    );
    // Act
    const replay = await direct(oldKey, 'Recorded');
    // Assess
    expect(JSON.parse(recorded?.result)).toMatchObject({ id: JSON.parse(first.body).data.id, name: 'Recorded' });
    expect(recorded).not.toHaveProperty('body');
    expect(replay.statusCode).toBe(201);
    expect(JSON.parse(replay.body)).toEqual(answer);
    expect(replay.headers).toMatchObject({ ETag: '"1"', 'Idempotent-Replayed': 'true' });
  });

  it('are kept 24 hours (TTL), and an expired record TTL has not deleted yet no longer holds its key', async () => {
    // Prepare
    const key = randomUUID();
    const first = await direct(key, 'Expiring');
    const record = idempotencyKey(owner, key);
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: record,
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
        ReturnValues: 'UPDATED_OLD',
      }),
    );
    // Act
    const again = await direct(key, 'Expiring 2');
    // Assess
    const keptFor = (Attributes?.ttl as number) - Math.floor(Date.parse(JSON.parse(first.body).data.created_at) / 1000);
    expect(keptFor).toBeGreaterThanOrEqual(24 * 3600 - 1);
    expect(keptFor).toBeLessThanOrEqual(24 * 3600 + 1);
    expect(again.statusCode).toBe(201);
    expect(again.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect(JSON.parse(again.body).data.name).toBe('Expiring 2');
  });

  it('answers 409 with Retry-After when the key was taken by a request whose answer cannot be read back', async () => {
    // Prepare: a record that exists for the transaction's condition, but has already expired for the reader.
    const key = randomUUID();
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...idempotencyKey(owner, key), kind: 'idempotency', fingerprint: 'x', ttl: 2 ** 40 },
      }),
    );
    db.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        // The record's read before the write: as if it did not exist yet.
        if (context.commandName === 'GetItemCommand' && JSON.stringify(args.input).includes('IDEMPOTENCY#')) {
          (result.output as { Item?: unknown }).Item = undefined;
        }
        return result;
      },
      { step: 'initialize', name: 'recordNotYetThere' },
    );
    // Act
    let reply: Awaited<ReturnType<typeof direct>>;
    try {
      reply = await direct(key, 'Conflicted');
    } finally {
      db.client.middlewareStack.remove('recordNotYetThere');
    }
    // Assess
    expect(reply.statusCode).toBe(409);
    expect(reply.headers?.['Retry-After']).toBe('1');
    expect(JSON.parse(reply.body)).toEqual({
      message: 'A request with the same idempotency key is still in progress. Please retry.',
      status: 409,
    });
  });
});
