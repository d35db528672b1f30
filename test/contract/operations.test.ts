/**
 * Every operation of the document, answering every status the document lists for it, over HTTP against the
 * local gateway. The shared client checks each answer against the document (status, body, headers).
 * 429 comes only from API Gateway's throttling, so its body is checked as the stack configures it.
 */
import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { failureAnswer, s3Failures } from '#infra/constructs/openapi-document.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { allScopes } from '#lib/auth/rules/scopes.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { errorCatalogue } from '#lib/http/errors.ts';
import { gatewayResponseBody, gatewayResponses } from '#lib/http/gateway-responses.ts';
import type { Scope } from '#lib/kinds.ts';
import { OPENAPI_PATH, publishedDocument } from '#lib/openapi/public.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';
import { type Client, clientFor, newClient, type Reply, send, startTestGateway } from '#test/support/http.ts';
import { checkResponse, documentOperations, seen } from '#test/support/openapi.ts';
import { startReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

type Operation = { id: string; method: string; path: string; statuses: number[]; scope: Scope };

const GATEWAY_ONLY = 429;
const DOCUMENT = 'showOpenApiDocument';
const operations: Operation[] = documentOperations().map(({ path, method, operation }) => ({
  id: operation.operationId,
  method,
  path: `/api/v1${path}`,
  statuses: Object.keys(operation.responses).map(Number),
  scope: (operation as { security?: Record<string, Scope[]>[] }).security?.[0]?.ApiKey?.[0] as Scope,
}));
const isDocument = (op: Operation) => op.id.startsWith(DOCUMENT);

let gateway: Gateway;
let client: Client;
let dns: DnsTestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  dns = await startDnsServer();
  receiver = await startReceiver();
  // The authorizer's answer is cached, so injected database faults reach the handlers, not the key lookup. A
  // webhook may call the test receiver on this machine, as on the local stack; every operation stores one.
  gateway = await startTestGateway({
    config: { ...configWithDns(dns), webhookLocalLoopback: true } as WebhookConfig,
    db: { ...db, maxWebhooksPerOwner: 1_000 },
    authCacheTtlSeconds: 300,
  });
  client = await newClient(gateway);
  expect((await client.get('/api/v1/spaces')).status).toBe(200);
});
afterAll(async () => {
  await gateway.close();
  await dns.close();
  await receiver.close();
});

const isSpaces = (op: Operation) => op.path.startsWith('/api/v1/spaces');
const isWebhooks = (op: Operation) => op.path.startsWith('/api/v1/webhooks');
const validBody = (op: Operation): Record<string, string> => {
  if (isSpaces(op)) return { name: `Space ${randomUUID().slice(0, 8)}`, color: '2' };
  if (isWebhooks(op)) return { url: receiver.url(`/${randomUUID()}`), events: 'space.*' };
  return { name: `d-${randomUUID().slice(0, 8)}.example.com`, index_page: 'https://example.com/' };
};
/** The same as JSON: the color a number, as strict JSON wants it; a webhook's events a list. */
const validJson = (op: Operation) => {
  if (isSpaces(op)) return { ...validBody(op), color: 2 };
  if (isWebhooks(op)) return { ...validBody(op), events: ['space.*'] };
  return validBody(op);
};
const invalidBody = (op: Operation): Record<string, string> => {
  if (isSpaces(op)) return { color: '9' };
  if (isWebhooks(op)) return { url: 'http://hooks.example.com/hook' };
  return { index_page: 'not a url' };
};
/** A change to an item's field that writes (its new value differs). */
const changing = (op: Operation): Record<string, string> => {
  if (isSpaces(op) || !op.path.includes('{id}')) return validBody(op);
  if (isWebhooks(op)) return { description: randomUUID() };
  return { index_page: `https://example.org/${randomUUID()}` };
};
const hasBody = (op: Operation) => op.method !== 'GET' && op.method !== 'HEAD' && op.method !== 'DELETE';
/** A request of the operation's method with a query (GET or HEAD). */
const withQuery = (op: Operation, path: string, query: Record<string, string>) =>
  client.request(op.method, `${path}?${new URLSearchParams(query)}`);

/** The operation's path with an id of a fresh item of its collection; a domain's record is published unless not. */
async function pathWithItem(op: Operation, { publish = true } = {}): Promise<string> {
  if (!op.path.includes('{id}')) return op.path;
  const collection = op.path.slice(0, op.path.indexOf('/{id}'));
  const stored = await client.post(collection, validBody(op));
  if (stored.status !== 201) throw new Error(`Could not store the item: ${stored.status} ${stored.text}`);
  const { data } = stored.body;
  if (publish && data.verification) dns.setTxt(data.verification.name, [data.verification.value]);
  return op.path.replace('{id}', String(data.id));
}

/** Fails every DynamoDB call the handlers make while `act` runs; the service logs it (kept off the output). */
async function withDatabaseFailure(name: string, act: () => Promise<Reply>): Promise<Reply> {
  const error = Object.assign(new Error(`Injected ${name}`), { name, $metadata: { httpStatusCode: 400 } });
  const logged: string[] = [];
  const keep = (...args: unknown[]) => void logged.push(JSON.stringify(args));
  const spies = [
    vi.spyOn(console, 'error').mockImplementation(keep),
    vi.spyOn(console, 'warn').mockImplementation(keep),
  ];
  db.client.middlewareStack.add(
    () => async () => {
      throw error;
    },
    { step: 'initialize', name: 'contractFault' },
  );
  try {
    const reply = await act();
    expect(logged.join('\n')).toContain(name);
    return reply;
  } finally {
    db.client.middlewareStack.remove('contractFault');
    for (const spy of spies) spy.mockRestore();
  }
}

/**
 * The defensive 409: a store whose idempotency record's condition fails (another request took the key) while
 * the record cannot be read back. Faked by answering the transaction as DynamoDB would in that case.
 */
async function withKeyTakenUnreadable(act: () => Promise<Reply>): Promise<Reply> {
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
      const items = (args.input as { TransactItems: unknown[] }).TransactItems;
      throw new TransactionCanceledException({
        message: 'Transaction cancelled [ConditionalCheckFailed]',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: items.map((_, index) => ({
          Code: index === items.length - 1 ? 'ConditionalCheckFailed' : 'None',
        })),
      });
    },
    { step: 'initialize', name: 'contractKeyTaken' },
  );
  try {
    return await act();
  } finally {
    db.client.middlewareStack.remove('contractKeyTaken');
  }
}

const isEvents = (op: Operation) => op.path === '/api/v1/events';

/** A request the handler accepts, so that it reaches the database (id 1 need not exist). */
const validRequest = (op: Operation) =>
  client.request(op.method, op.path.replace('{id}', '1'), hasBody(op) ? { form: validBody(op) } : {});

const triggers: Record<number, (op: Operation) => Promise<Reply>> = {
  200: async (op) =>
    op.method === 'PUT'
      ? client.request('PUT', await pathWithItem(op), {
          json: isSpaces(op) ? { color: 4 } : isWebhooks(op) ? { enabled: false } : { index_page: null },
        })
      : client.request(op.method, await pathWithItem(op), hasBody(op) ? { form: validBody(op) } : {}),
  201: async (op) => client.request(op.method, op.path, { json: validJson(op) }),
  400: async (op) =>
    client.request(op.method, await pathWithItem(op), {
      body: '{"name":',
      headers: { 'Content-Type': 'application/json' },
    }),
  401: async (op) => send(`${gateway.url}${op.path.replace('{id}', '1')}`, op.method),
  // A key with every scope but the one the operation documents.
  403: async (op) => {
    const { key } = await createApiKey(db, client.owner, 'without the scope', {
      // The feed needs any read scope: a key without one.
      scopes: allScopes.filter((scope) => (isEvents(op) ? !scope.endsWith(':read') : scope !== op.scope)),
    });
    const path = await pathWithItem(op);
    return clientFor(gateway, key).request(op.method, path, hasBody(op) ? { form: validBody(op) } : {});
  },
  404: async (op) => client.request(op.method, op.path.replace('{id}', '999999999'), hasBody(op) ? { form: {} } : {}),
  // A client that takes XML only: nothing is done (a store stores nothing).
  406: async (op) =>
    client.request(op.method, await pathWithItem(op), {
      ...(hasBody(op) ? { form: validBody(op) } : {}),
      headers: { Accept: 'application/xml' },
    }),
  413: async (op) => client.request(op.method, await pathWithItem(op), { form: { name: 'x'.repeat(MAX_BODY_BYTES) } }),
  415: async (op) =>
    client.request(op.method, await pathWithItem(op), { body: 'name=x', headers: { 'Content-Type': 'text/plain' } }),
  304: async (op) => {
    const path = await pathWithItem(op);
    const etag = (await client.get(path)).headers.get('etag') as string;
    return client.request(op.method, path, { headers: { 'If-None-Match': etag } });
  },
  409: async (op) => {
    const path = await pathWithItem(op);
    // A change that changes something (an update to the values it has writes nothing, so takes no key).
    return withKeyTakenUnreadable(() =>
      client.request(op.method, path, {
        ...(hasBody(op) ? { form: changing(op) } : {}),
        headers: { 'Idempotency-Key': randomUUID() },
      }),
    );
  },
  // A cursor from another copy of the feed: beyond this owner's head, in an epoch it never had.
  410: async (op) => withQuery(op, op.path, { after: 'v1.1.999999.0' }),
  412: async (op) =>
    client.request(op.method, await pathWithItem(op), {
      ...(hasBody(op) ? { form: { color: '4', index_page: '', description: 'x' } } : {}),
      headers: { 'If-Match': '"999"' },
    }),
  422: async (op) => {
    if (op.id === 'verifyDomain') return client.request(op.method, await pathWithItem(op, { publish: false }));
    // A delete and a rotation have no body: their Idempotency-Key is what can be invalid.
    if (op.method === 'DELETE' || op.id === 'rotateSecretWebhook') {
      return client.request(op.method, await pathWithItem(op), { headers: { 'Idempotency-Key': 'k'.repeat(256) } });
    }
    return hasBody(op)
      ? client.request(op.method, await pathWithItem(op), { form: invalidBody(op) })
      : withQuery(op, await pathWithItem(op), isEvents(op) ? { after: 'not-an-event-id' } : { cursor: 'not-a-cursor' });
  },
  500: (op) => withDatabaseFailure('ValidationException', () => validRequest(op)),
  503: (op) => withDatabaseFailure('ThrottlingException', () => validRequest(op)),
};

/** An answer the local gateway never gives, checked as the stack configures it (the request id set). */
function checkedAnswer(op: Operation, answer: { statusCode: number; headers: Record<string, string>; body: string }) {
  const headers = new Headers({ ...answer.headers, 'X-Request-Id': 'set-by-the-gateway' });
  const text = op.method === 'HEAD' ? '' : answer.body;
  const reply = { status: answer.statusCode, headers, body: text ? JSON.parse(text) : undefined };
  checkResponse(op.method, `${gateway.url}${op.path}`, { ...reply, text });
  return { ...reply, text };
}

/** On AWS only: S3 refusing (4xx) or failing (5xx) to give the document, as the stack maps it. */
const s3Failure = (status: number) => async (op: Operation) => {
  const kind = Object.values(s3Failures).find((each) => errorCatalogue[each].status === status);
  if (!kind) throw new Error(`The stack maps no S3 status to ${status}`);
  return checkedAnswer(op, failureAnswer(kind));
};

/**
 * This document: without a key; 404 is a local stack's before `npm run openapi` (a missing file here); 500 and
 * 503 are API Gateway's when S3 does not give the deployed object.
 */
const documentTriggers: Record<number, (op: Operation) => Promise<Reply>> = {
  200: (op) => send(`${gateway.url}${op.path}`, op.method),
  404: async (op) => {
    const missing = { [OPENAPI_PATH]: { file: '/nonexistent/openapi.json', contentType: 'application/json' } };
    const answer = await publishedDocument(op.method, OPENAPI_PATH, gateway.url, missing);
    if (!answer) throw new Error('no answer for the document');
    return checkedAnswer(op, answer);
  },
  500: s3Failure(500),
  503: s3Failure(503),
};

describe.each(operations)('$id ($method $path)', (op) => {
  const statuses = op.statuses.filter((status) => status !== GATEWAY_ONLY);
  it.each(statuses)('answers %i as documented', async (status) => {
    // Prepare
    const trigger = isDocument(op) ? documentTriggers[status] : triggers[status];
    if (!trigger) throw new Error(`No way to make ${op.id} answer ${status}: add a trigger for it`);
    // Act: the client throws when the answer is not what the document allows.
    const reply = await trigger(op);
    // Assess
    expect(reply.status, reply.text).toBe(status);
  });
});

describe('coverage', () => {
  it('saw every operation answer, live, every status it documents but 429', () => {
    // Assess: twenty routes (verify, a webhook's rotate-secret, test and deliveries, and the change feed among
    // them), PUT and PATCH two methods of each update route, HEAD on the eight GET routes, and this document
    // (GET and HEAD).
    expect(operations).toHaveLength(23 + 8 + 2);
    for (const op of operations) {
      const live = op.statuses.filter((status) => status !== GATEWAY_ONLY);
      expect([...(seen.get(op.id) ?? [])].sort(), op.id).toEqual(live.sort());
    }
  });
});

describe('API Gateway answers', () => {
  it('validate against every operation that documents their status; only 502 and 504 are left out', () => {
    // Prepare
    const undocumented = new Set<number>();
    // Act: each of API Gateway's own answers, as the stack configures it, checked like a live one.
    for (const [type, response] of Object.entries(gatewayResponses)) {
      const ops = operations.filter((op) => op.statuses.includes(response.statusCode) && !isDocument(op));
      if (ops.length === 0) undocumented.add(response.statusCode);
      for (const op of ops) {
        // API Gateway sets the request id on its own answers too (every answer carries one).
        const headers = new Headers({
          'Content-Type': 'application/json',
          'X-Request-Id': 'set-by-api-gateway',
          ...('headers' in response ? response.headers : {}),
        });
        const body = gatewayResponseBody(type as keyof typeof gatewayResponses);
        checkResponse(op.method, `${gateway.url}${op.path}`, { status: response.statusCode, headers, body, text: '' });
      }
    }
    // Assess: Lambda crashes and timeouts are infrastructure failures, not part of the contract.
    expect([...undocumented].sort()).toEqual([502, 504]);
    expect(operations.every((op) => isDocument(op) || op.statuses.includes(GATEWAY_ONLY))).toBe(true);
  });
});
