/**
 * Authentication over the local gateway (which runs the real authorizer): which Authorization headers are
 * accepted, that keys are only ever looked up by their hash, that neither the key nor the header reaches
 * the logs, and that the owner always comes from the authorizer, never from the request.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { create as createListSpaces } from '#functions/spaces/list.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { createApiKey, revokeApiKey } from '#lib/auth/data/key-admin.ts';
import { displayPrefix, generateApiKey, hashApiKey, KEY_PREFIX } from '#lib/auth/rules/api-key.ts';
import { apiKeyKey } from '#lib/data/keys.ts';
import { config, db } from '#test/support/database.ts';
import { type Client, clientFor, newClient, send, startTestGateway } from '#test/support/http.ts';
import { expectErrorContract, type Injection, injectFault, UNAUTHENTICATED, type WireCall } from './helpers.ts';

let gateway: Gateway;
let client: Client;
let injection: Injection | undefined;

beforeAll(async () => {
  // Request logging on, as `npm start` runs it, so its lines are part of what must not leak.
  gateway = await startTestGateway({ logRequests: true });
  client = await newClient(gateway);
});
afterAll(() => gateway.close());
afterEach(() => {
  injection?.remove();
  injection = undefined;
});

const spaces = `/api/v1/spaces`;
const withAuthorization = (authorization: string | undefined) =>
  send(`${gateway.url}${spaces}`, 'GET', {
    headers: { Accept: 'application/json', ...(authorization === undefined ? {} : { Authorization: authorization }) },
  });

describe('which Authorization headers are accepted', () => {
  it.each([
    ['Bearer <key>', (key: string) => `Bearer ${key}`],
    ['bearer <key> (the scheme is case-insensitive, RFC 7235)', (key: string) => `bearer ${key}`],
    ['BEARER <key>', (key: string) => `BEARER ${key}`],
  ])('%s → 200', async (_, header) => {
    // Act
    const reply = await withAuthorization(header(client.key));
    // Assess
    expect(reply.status).toBe(200);
  });

  const otherPrefix = () => `sk_live_${client.key.slice(KEY_PREFIX.length)}`;
  it.each([
    ['no header', () => undefined],
    ['an empty header', () => ''],
    ['Basic with the key', (key: string) => `Basic ${key}`],
    ['Basic credentials', (key: string) => `Basic ${Buffer.from(`user:${key}`).toString('base64')}`],
    ['Bearer and no token', () => 'Bearer'],
    ['Bearer and an empty token', () => 'Bearer '],
    ['two spaces after Bearer', (key: string) => `Bearer  ${key}`],
    ['a tab after Bearer', (key: string) => `Bearer\t${key}`],
    ['another scheme (Token)', (key: string) => `Token ${key}`],
    ['the key without a scheme', (key: string) => key],
    ['the key twice', (key: string) => `Bearer ${key} ${key}`],
    ['a key of another prefix', () => `Bearer ${otherPrefix()}`],
    ['a well-formed unknown key', () => `Bearer ${generateApiKey()}`],
    [
      'the key with one character changed',
      (key: string) => `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
    ],
    ['the key truncated', (key: string) => `Bearer ${key.slice(0, -1)}`],
    ['the key with a suffix', (key: string) => `Bearer ${key}x`],
    ['the key’s hash', (key: string) => `Bearer ${hashApiKey(key)}`],
  ])('%s → 401', async (_, header) => {
    // Act
    const reply = await withAuthorization(header(client.key));
    // Assess
    expectErrorContract(reply, 401);
    expect(reply.body).toEqual(UNAUTHENTICATED);
  });

  it('a revoked key → 401, while the owner’s other key keeps working', async () => {
    // Prepare
    const owner = await newClient(gateway);
    const second = clientFor(gateway, (await createApiKey(db, owner.owner, 'second')).key, owner.owner);
    expect((await owner.get(spaces)).status).toBe(200);
    // Act
    await revokeApiKey(db, displayPrefix(owner.key));
    // Assess
    const revoked = await owner.get(spaces);
    expectErrorContract(revoked, 401);
    expect(revoked.body).toEqual(UNAUTHENTICATED);
    expect((await second.get(spaces)).status).toBe(200);
  });
});

describe('keys are handled only by their hash', () => {
  it('the authorizer looks a key up with one GetItem on its SHA-256 hash and records its use on it; the key itself never goes to DynamoDB', async () => {
    // Prepare: a key never used, so that the authorizer records its use.
    const fresh = await newClient(gateway);
    const calls: WireCall[] = [];
    injection = injectFault({
      when: (call) => {
        calls.push(call);
        return false;
      },
    });
    // Act
    const first = await fresh.get(spaces);
    const firstCalls = calls.splice(0);
    const second = await fresh.get(spaces);
    // Assess: the first use is recorded (GetItem, then UpdateItem); within the hour, the next only reads.
    expect([first.status, second.status]).toEqual([200, 200]);
    const lookups = (list: WireCall[]) => list.filter((call) => JSON.stringify(call.body).includes('APIKEY#'));
    expect(lookups(firstCalls).map((call) => call.operation)).toEqual(['GetItem', 'UpdateItem']);
    expect(lookups(calls).map((call) => call.operation)).toEqual(['GetItem']);
    for (const lookup of [...lookups(firstCalls), ...lookups(calls)]) {
      expect(JSON.stringify(lookup.body)).toContain(hashApiKey(fresh.key));
    }
    for (const call of [...firstCalls, ...calls]) expect(JSON.stringify(call.body)).not.toContain(fresh.key);
  });

  it('the stored key record holds the hash and a display prefix, never the key', async () => {
    // Act
    const { Item } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: apiKeyKey(hashApiKey(client.key)) }),
    );
    // Assess
    expect(Item).toMatchObject({ owner: client.owner, revoked: false, prefix: displayPrefix(client.key) });
    expect(JSON.stringify(Item)).not.toContain(client.key);
    expect(displayPrefix(client.key).length).toBeLessThan(client.key.length / 3);
  });
});

describe('recording the last use never refuses or holds up a valid key', () => {
  const lastUseWrite = (call: WireCall) =>
    call.operation === 'UpdateItem' && JSON.stringify(call.body).includes('APIKEY#');

  it('a failed last-use write is logged as a warning and the key is served', async () => {
    // Prepare: a key never used (its first use is recorded), and a write DynamoDB refuses.
    const fresh = await newClient(gateway);
    const warnings: unknown[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((entry: unknown) => void warnings.push(entry));
    injection = injectFault({
      when: lastUseWrite,
      before: () =>
        Object.assign(new Error('Injected: no write'), {
          name: 'AccessDeniedException',
          $metadata: { httpStatusCode: 400 },
        }),
    });
    try {
      // Act
      const reply = await fresh.get(spaces);
      // Assess
      expect(reply.status).toBe(200);
      expect(injection.attempts).toBe(1);
      await vi.waitFor(() =>
        expect(warnings).toContainEqual({
          message: 'Last use not recorded',
          error: 'AccessDeniedException',
          statusCode: 400,
        }),
      );
    } finally {
      spy.mockRestore();
    }
  });

  it('a slow last-use write does not hold up the answer', async () => {
    // Prepare: a write held on its way to DynamoDB until the test lets it go (after the answer).
    const fresh = await newClient(gateway);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    injection = injectFault({ when: lastUseWrite, meanwhile: () => held });
    // Act: the answer comes while the write is still held (were it waited for, it would never come).
    const reply = await fresh.get(spaces);
    const attempts = injection.attempts;
    release();
    // Assess: the write had begun (the authorizer waits for it 25 ms at most, then answers).
    expect(reply.status).toBe(200);
    expect(attempts).toBe(1);
  });
});

describe('logs never hold the key or the Authorization header', () => {
  it('across accepted, refused, failing and erroring requests', async () => {
    // Prepare: capture every way output leaves the process.
    const lines: string[] = [];
    const capture = (...args: unknown[]) => {
      const text = (arg: unknown) =>
        arg instanceof Error
          ? `${arg.message} ${arg.stack}`
          : typeof arg === 'object'
            ? JSON.stringify(arg)
            : String(arg);
      lines.push(args.map(text).join(' '));
    };
    const spies = [
      vi.spyOn(console, 'log').mockImplementation(capture),
      vi.spyOn(console, 'info').mockImplementation(capture),
      vi.spyOn(console, 'warn').mockImplementation(capture),
      vi.spyOn(console, 'error').mockImplementation(capture),
      vi.spyOn(console, 'debug').mockImplementation(capture),
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        capture(String(chunk));
        return true;
      }),
      vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        capture(String(chunk));
        return true;
      }),
    ];
    const owner = await newClient(gateway);
    const unknownKey = generateApiKey();
    const headers = [`Bearer ${owner.key}`, `bearer ${owner.key}`, `Basic ${owner.key}`, `Bearer ${unknownKey}`];
    try {
      // Act: accepted, refused (malformed and unknown), a failing key lookup (503) and a handler error (500).
      await owner.post(spaces, { name: 'Logged' });
      await owner.get(`${spaces}?api_key=${owner.key}`);
      await owner.post(spaces, { name: 'x'.repeat(40) });
      await withAuthorization(`Basic ${owner.key}`);
      await withAuthorization(`Bearer ${unknownKey}`);
      await withAuthorization(`Bearer  ${owner.key}`);
      injection = injectFault({
        when: (call) => call.operation === 'GetItem',
        before: () =>
          Object.assign(new Error(`lookup failed`), {
            name: 'InternalServerError',
            $metadata: { httpStatusCode: 500 },
          }),
      });
      const unavailable = await owner.get(spaces);
      injection.remove();
      injection = injectFault({
        when: (call) => call.operation === 'Query',
        before: () =>
          Object.assign(new Error('Injected bug'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } }),
      });
      const broken = await owner.get(spaces);
      injection.remove();
      injection = undefined;
      // Assess
      expect(unavailable.status).toBe(503);
      expect(broken.status).toBe(500);
      expect(broken.text).not.toContain('Injected bug');
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const output = lines.join('\n');
    // The capture saw the request lines, the refusals and the 500's log, so it would have seen a key.
    expect(output).toMatch(/GET \/api\/v1\/spaces 200/);
    expect(output).toContain('Authorization refused');
    expect(output).toContain('Unhandled error');
    for (const secret of [owner.key, unknownKey, hashApiKey(owner.key), ...headers])
      expect(output).not.toContain(secret);
    expect(output.toLowerCase()).not.toContain('authorization":');
  });
});

describe('the owner comes only from the authorizer', () => {
  it('owner ids in the query, a form or headers are ignored, in JSON refused; another owner’s items stay invisible', async () => {
    // Prepare
    const victim = await newClient(gateway);
    const attacker = await newClient(gateway);
    const victimSpace = (await victim.post(spaces, { name: `Secret ${randomUUID().slice(0, 6)}` })).body.data;
    const spoof = {
      'X-Owner-Id': victim.owner,
      'X-Amzn-RequestContext': JSON.stringify({ authorizer: { ownerId: victim.owner } }),
      'X-Principal-Id': victim.owner,
    };
    // Act
    const listed = await attacker.request(
      'GET',
      `${spaces}?owner=${victim.owner}&ownerId=${victim.owner}&principalId=${victim.owner}`,
      { headers: spoof },
    );
    const shown = await attacker.request('GET', `${spaces}/${victimSpace.id}?ownerId=${victim.owner}`, {
      headers: spoof,
    });
    const changed = await attacker.request('PATCH', `${spaces}/${victimSpace.id}`, {
      form: { color: '6', ownerId: victim.owner, owner: victim.owner },
      headers: spoof,
    });
    const deleted = await attacker.request('DELETE', `${spaces}/${victimSpace.id}?owner=${victim.owner}`, {
      headers: spoof,
    });
    const stored = await attacker.request('POST', spaces, {
      form: { name: 'Planted', owner: victim.owner, ownerId: victim.owner },
      headers: spoof,
    });
    // Strict JSON input: fields a body does not list are refused, the owner's among them.
    const storedJson = await attacker.request('POST', spaces, {
      json: { name: 'Planted twice', owner: victim.owner, requestContext: { authorizer: { ownerId: victim.owner } } },
      headers: spoof,
    });
    // Assess
    expect(listed.body.meta.total).toBe(0);
    for (const reply of [shown, changed, deleted])
      expect(reply.body).toEqual({ message: 'Resource not found.', status: 404 });
    expect(stored.status).toBe(201);
    expect(storedJson.status).toBe(422);
    expect(Object.keys(storedJson.body.errors).sort()).toEqual(['owner', 'requestContext']);
    expect((await attacker.get(spaces)).body.data.map((space: { name: string }) => space.name)).toEqual(['Planted']);
    const victimList = await victim.get(spaces);
    expect(victimList.body.data).toEqual([victimSpace]);
  });

  it('a handler invoked without an authorizer context refuses with 401, whatever the request says', async () => {
    // Prepare
    const event = {
      httpMethod: 'GET',
      path: spaces,
      resource: spaces,
      headers: { Authorization: `Bearer ${client.key}`, 'X-Owner-Id': client.owner },
      multiValueHeaders: {},
      queryStringParameters: { owner: client.owner },
      multiValueQueryStringParameters: { owner: [client.owner] },
      pathParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: 'no-authorizer', path: spaces, authorizer: null },
    } as unknown as APIGatewayProxyEvent;
    // Act
    const reply = await createListSpaces(config, db)(event, {} as Context);
    // Assess
    expect(reply.statusCode).toBe(401);
    expect(JSON.parse(reply.body)).toEqual(UNAUTHENTICATED);
  });
});
