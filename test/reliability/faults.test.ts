/**
 * DynamoDB failures, injected with SDK middleware on the shared client the handlers use: throttling,
 * server errors, timeouts, lost answers and transaction conflicts. The API answers 503 with Retry-After
 * once the SDK's retries are spent, never claims a write that did not happen, and never leaves partial
 * state. The authorizer fails closed.
 */
import { createServer, type Server, type Socket } from 'node:net';
import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { create as createAuthorizer } from '#functions/authorizer.ts';
import { freePort } from '#infra/local/dynamodb-local.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { stages } from '#infra/stages.ts';
import { createDb, dynamoClientConfig } from '#lib/data/dynamodb.ts';
import { updateSpace } from '#lib/spaces/data/spaces.ts';
import { config, db, harness } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns, publish } from '#test/support/domains.ts';
import { FAITHFUL } from '#test/support/dynamodb-harness.ts';
import { type Client, newClient, type Reply, startTestGateway } from '#test/support/http.ts';
import {
  expectErrorContract,
  type FaultPlan,
  faultSuite,
  injectFault,
  RETRY_QUOTA,
  retryQuota,
  serviceError,
  touches,
} from './helpers.ts';

let gateway: Gateway;
let dns: DnsTestServer;
const suite = faultSuite();

beforeAll(async () => {
  dns = await startDnsServer();
  gateway = await startTestGateway({ config: configWithDns(dns) });
});
afterAll(async () => {
  await gateway.close();
  await dns.close();
});

const inject = (plan: FaultPlan) => {
  suite.injection = injectFault(plan);
  return suite.injection;
};

async function owner(): Promise<Client> {
  const client = await newClient(gateway);
  suite.checked = { owners: [client.owner], domains: [] };
  return client;
}

const throttled = () => serviceError(ProvisionedThroughputExceededException, 400);
const serverError = () => serviceError(InternalServerError, 500);
const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }],
  });

function expectUnavailable(reply: Reply) {
  expectErrorContract(reply, 503);
  expect(reply.body).toEqual({ message: 'Service temporarily unavailable. Please retry.', status: 503 });
  expect(Number(reply.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('the SDK retry policy', () => {
  it('is explicit, and a DynamoDB call that hangs is given up well inside the Lambda timeout', () => {
    // Prepare
    const { maxAttempts, requestHandler } = dynamoClientConfig;
    const lambdaTimeoutMs = stages.prod.functions.timeout.toMilliseconds();
    // The SDK's worst backoff between attempts is for throttling: up to 1 s, then 2 s (base 1 s, doubling).
    const worstBackoffMs = 1_000 * (2 ** (maxAttempts - 1) - 1);
    // Act
    const worstCallMs = maxAttempts * requestHandler.requestTimeout + worstBackoffMs;
    // Assess: every attempt is bounded (the request timeout throws rather than only warning).
    expect(requestHandler.throwOnRequestTimeout).toBe(true);
    expect(requestHandler.connectionTimeout).toBeLessThan(requestHandler.requestTimeout);
    expect(worstCallMs).toBeLessThan(lambdaTimeoutMs);
  });
});

describe('throttling and server errors', () => {
  it('throttling that outlasts the retries is a 503 with Retry-After, after exactly maxAttempts attempts', async () => {
    // Prepare
    const client = await owner();
    const id = (await client.post('/api/v1/spaces', { name: 'Busy' })).body.data.id;
    const fault = inject({ when: touches(client.owner, 'GetItem'), before: throttled });
    // Act
    const reply = await client.get(`/api/v1/spaces/${id}`);
    // Assess
    expectUnavailable(reply);
    expect(fault.attempts).toBe(dynamoClientConfig.maxAttempts);
  });

  it('a throttle the SDK retries away is invisible to the client', async () => {
    // Prepare
    const client = await owner();
    const id = (await client.post('/api/v1/spaces', { name: 'Briefly busy' })).body.data.id;
    const fault = inject({
      when: touches(client.owner, 'GetItem'),
      before: (attempt) => (attempt === 1 ? throttled() : undefined),
    });
    // Act
    const reply = await client.get(`/api/v1/spaces/${id}`);
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ id, name: 'Briefly busy' });
    expect(fault.attempts).toBe(2);
  });

  it('an InternalServerError on every attempt of a list is a 503 after maxAttempts attempts', async () => {
    // Prepare
    const client = await owner();
    const fault = inject({ when: touches(client.owner, 'Query'), before: serverError });
    // Act
    const reply = await client.get('/api/v1/spaces', { sort_by: 'name' });
    // Assess
    expectUnavailable(reply);
    expect(fault.attempts).toBe(dynamoClientConfig.maxAttempts);
  });
});

/** Every write the API makes, with what must still be true when its DynamoDB write fails. */
type WriteCase = {
  name: string;
  prepare: (client: Client) => Promise<{ path: string; method: string; form: Record<string, string> }>;
  unchanged: (client: Client) => Promise<void>;
};

const writeCases: WriteCase[] = [
  {
    name: 'store a space',
    prepare: async () => ({ path: '/api/v1/spaces', method: 'POST', form: { name: 'Never stored' } }),
    unchanged: async (client) => {
      expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(0);
      expect((await client.get('/api/v1/spaces', { search: 'never' })).body.data).toEqual([]);
    },
  },
  {
    name: 'store a domain',
    prepare: async (client) => {
      const name = `never-${client.owner.slice(-8)}.example.com`;
      suite.checked.domains.push(name);
      return { path: '/api/v1/domains', method: 'POST', form: { name } };
    },
    unchanged: async (client) => expect((await client.get('/api/v1/domains')).body.meta.total).toBe(0),
  },
  {
    name: 'change a space’s color',
    prepare: async (client) => {
      const id = (await client.post('/api/v1/spaces', { name: 'Steady', color: '2' })).body.data.id;
      return { path: `/api/v1/spaces/${id}`, method: 'PATCH', form: { color: '6' } };
    },
    unchanged: async (client) =>
      expect((await client.get('/api/v1/spaces')).body.data).toMatchObject([{ name: 'Steady', color: 2 }]),
  },
  {
    name: 'rename a space',
    prepare: async (client) => {
      const id = (await client.post('/api/v1/spaces', { name: 'Original' })).body.data.id;
      return { path: `/api/v1/spaces/${id}`, method: 'PUT', form: { name: 'Renamed', color: '4' } };
    },
    unchanged: async (client) => {
      expect((await client.get('/api/v1/spaces')).body.data).toMatchObject([{ name: 'Original', color: 1 }]);
      // The new name was not taken by the failed rename, the old one is still held.
      expect((await client.post('/api/v1/spaces', { name: 'renamed' })).status).toBe(201);
      expect((await client.post('/api/v1/spaces', { name: 'original' })).status).toBe(422);
    },
  },
  {
    name: 'update a domain',
    prepare: async (client) => {
      const name = `steady-${client.owner.slice(-8)}.example.com`;
      suite.checked.domains.push(name);
      const id = (await client.post('/api/v1/domains', { name })).body.data.id;
      return { path: `/api/v1/domains/${id}`, method: 'PATCH', form: { index_page: 'https://elsewhere.example.net/' } };
    },
    unchanged: async (client) =>
      expect((await client.get('/api/v1/domains')).body.data).toMatchObject([{ index_page: null }]),
  },
  {
    name: 'delete a space',
    prepare: async (client) => {
      const id = (await client.post('/api/v1/spaces', { name: 'Survivor' })).body.data.id;
      return { path: `/api/v1/spaces/${id}`, method: 'DELETE', form: {} };
    },
    unchanged: async (client) => {
      const list = await client.get('/api/v1/spaces');
      expect(list.body.meta.total).toBe(1);
      expect(list.body.data).toMatchObject([{ name: 'Survivor' }]);
    },
  },
  {
    name: 'delete a domain',
    prepare: async (client) => {
      const name = `survivor-${client.owner.slice(-8)}.example.com`;
      suite.checked.domains.push(name);
      await client.post('/api/v1/domains', { name });
      const id = (await client.get('/api/v1/domains')).body.data[0].id;
      return { path: `/api/v1/domains/${id}`, method: 'DELETE', form: {} };
    },
    unchanged: async (client) => expect((await client.get('/api/v1/domains')).body.meta.total).toBe(1),
  },
  {
    name: 'verify a domain',
    prepare: async (client) => {
      const { data } = (await client.post('/api/v1/domains', { name: pendingName(client) })).body;
      publish(dns, data);
      return { path: `/api/v1/domains/${data.id}/verify`, method: 'POST', form: {} };
    },
    unchanged: async (client) => {
      expect((await client.get('/api/v1/domains')).body.data).toMatchObject([{ status: 'pending' }]);
      // The name was not taken: another owner stores it (pending) and verifies it.
      const other = await newClient(gateway);
      suite.checked.owners.push(other.owner);
      const { data } = (await other.post('/api/v1/domains', { name: pendingName(client) })).body;
      publish(dns, data);
      expect((await other.request('POST', `/api/v1/domains/${data.id}/verify`)).status).toBe(200);
    },
  },
  {
    name: 'delete an active domain',
    prepare: async (client) => {
      const { data } = (await client.post('/api/v1/domains', { name: pendingName(client) })).body;
      publish(dns, data);
      expect((await client.request('POST', `/api/v1/domains/${data.id}/verify`)).status).toBe(200);
      return { path: `/api/v1/domains/${data.id}`, method: 'DELETE', form: {} };
    },
    unchanged: async (client) => {
      expect((await client.get('/api/v1/domains')).body.data).toMatchObject([{ status: 'active' }]);
      // The name is still held: another owner cannot store it.
      expect((await (await newClient(gateway)).post('/api/v1/domains', { name: pendingName(client) })).status).toBe(
        422,
      );
    },
  },
];

/** The name of the domain a write case verifies, one per owner (checked after the test). */
function pendingName(client: Client): string {
  const name = `proved-${client.owner.slice(-8)}.example.com`;
  if (!suite.checked.domains.includes(name)) suite.checked.domains.push(name);
  return name;
}

const isWrite = (owner: string) => (call: Parameters<FaultPlan['when']>[0]) =>
  ['TransactWriteItems', 'UpdateItem', 'PutItem', 'DeleteItem'].includes(call.operation) &&
  touches(owner)(call) &&
  // The id and the event ticket are taken before the write; a failed write leaves a gap, which the contract
  // allows. (The transaction itself writes the event sequence: it is faulted.)
  !(call.operation === 'UpdateItem' && JSON.stringify(call.body).includes('SEQUENCE#'));

describe('the SDK retry quota', () => {
  it('under sustained failure the client stops retrying (fails fast) instead of multiplying the load', async () => {
    // Prepare
    const client = await owner();
    const fault = inject({ when: touches(client.owner, 'Query'), before: serverError });
    const attemptsPerRequest: number[] = [];
    // Act
    for (let request = 0; request < 25; request++) {
      const before = fault.attempts;
      expectUnavailable(await client.get('/api/v1/spaces', { sort_by: 'name' }));
      attemptsPerRequest.push(fault.attempts - before);
      if (attemptsPerRequest.at(-1) === 1) break;
    }
    // Assess: full retries at first, then one attempt per request once the quota is spent.
    expect(attemptsPerRequest[0]).toBe(dynamoClientConfig.maxAttempts);
    expect(attemptsPerRequest.at(-1)).toBe(1);
    expect(await retryQuota()).toBeLessThan(RETRY_QUOTA / 10);
  });
});

/**
 * For the suites that count a transaction's attempts: the harness's random cancellations (FAITHFUL) would add an
 * attempt now and then, so they are off there, and every retry is one the test injected.
 */
function withoutRandomCancellations() {
  beforeEach(() => harness?.configure({ conflicts: FAITHFUL.conflicts && { ...FAITHFUL.conflicts, randomRate: 0 } }));
  afterEach(() => harness?.configure({ conflicts: FAITHFUL.conflicts }));
}

describe('a failed write is never reported as done and leaves no partial state', () => {
  withoutRandomCancellations();
  it.each(writeCases)('$name: DynamoDB fails every attempt → 503, nothing changed', async (writeCase) => {
    // Prepare
    const client = await owner();
    const { path, method, form } = await writeCase.prepare(client);
    const fault = inject({ when: isWrite(client.owner), before: serverError });
    // Act
    const reply = await client.request(method, path, method === 'DELETE' ? {} : { form });
    fault.remove();
    // Assess
    expectUnavailable(reply);
    expect(fault.attempts).toBeGreaterThanOrEqual(dynamoClientConfig.maxAttempts);
    await writeCase.unchanged(client);
  });

  it('a transaction whose answer is lost is retried with the same token: stored once, 201', async () => {
    // Prepare
    const client = await owner();
    const fault = inject({
      when: touches(client.owner, 'TransactWriteItems'),
      after: (attempt) => (attempt === 1 ? serverError() : undefined),
    });
    // Act
    const reply = await client.post('/api/v1/spaces', { name: 'Lost answer' });
    // Assess: DynamoDB ran the first attempt; the retry (same ClientRequestToken) did not write it twice.
    expect(reply.status).toBe(201);
    expect(fault.attempts).toBe(2);
    const list = await client.get('/api/v1/spaces');
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data).toEqual([reply.body.data]);
  });
});

describe('a verification whose transaction answer is lost', () => {
  withoutRandomCancellations();
  it('is retried with the same token: active once, 200, the name held', async () => {
    // Prepare
    const client = await owner();
    const { data } = (await client.post('/api/v1/domains', { name: pendingName(client) })).body;
    publish(dns, data);
    const fault = inject({
      when: touches(client.owner, 'TransactWriteItems'),
      after: (attempt) => (attempt === 1 ? serverError() : undefined),
    });
    // Act
    const reply = await client.request('POST', `/api/v1/domains/${data.id}/verify`);
    // Assess
    expect(reply.status, reply.text).toBe(200);
    expect(fault.attempts).toBe(2);
    expect(reply.body.data.status).toBe('active');
    expect((await client.get(`/api/v1/domains/${data.id}`)).body).toEqual(reply.body);
  });
});

describe('transaction conflicts', () => {
  it('conflicts are retried with backoff until the transaction goes through', async () => {
    // Prepare: the harness's own random cancellations off, so that every conflict is one injected here.
    harness?.configure({ conflicts: FAITHFUL.conflicts && { ...FAITHFUL.conflicts, randomRate: 0 } });
    onTestFinished(() => harness?.configure({ conflicts: FAITHFUL.conflicts }));
    const client = await owner();
    const fault = inject({
      when: touches(client.owner, 'TransactWriteItems'),
      before: (attempt) => (attempt <= 3 ? conflict() : undefined),
    });
    // Act
    const reply = await client.post('/api/v1/spaces', { name: 'Contended' });
    // Assess
    expect(reply.status).toBe(201);
    expect(fault.attempts).toBe(4);
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(1);
  });

  it('a conflict that never clears is a 503 with Retry-After and nothing stored', async () => {
    // Prepare
    const client = await owner();
    const fault = inject({ when: touches(client.owner, 'TransactWriteItems'), before: conflict });
    // Act
    const reply = await client.post('/api/v1/spaces', { name: 'Forever contended' });
    fault.remove();
    // Assess
    expectUnavailable(reply);
    expect(fault.attempts).toBeGreaterThan(1);
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(0);
  });
});

describe('a write between the two steps of a rename', () => {
  withoutRandomCancellations();
  it('a color set after the rename read the space is kept and answered: 200 equals the show', async () => {
    // Prepare
    const client = await owner();
    const { data: space } = (await client.post('/api/v1/spaces', { name: 'Before', color: '2' })).body;
    const path = `/api/v1/spaces/${space.id}`;
    // Another process's change: this process commits one change of an owner at a time (lib/data/commit.ts).
    const other = createDb(config);
    const fault = inject({
      when: touches(client.owner, 'TransactWriteItems'),
      meanwhile: (attempt) => (attempt === 1 ? updateSpace(other, client.owner, space.id, { color: 5 }) : undefined),
    });
    // Act
    const renamed = await client.patch(path, { name: 'After' });
    fault.remove();
    other.client.destroy();
    // Assess: the first transaction saw the color change and failed; the retry read it again.
    expect(renamed.status).toBe(200);
    expect(fault.attempts).toBe(2);
    expect(renamed.body.data).toMatchObject({ name: 'After', color: 5 });
    expect((await client.get(path)).body).toEqual(renamed.body);
  });
});

describe('timeouts and unreachable DynamoDB', () => {
  let blackHole: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Accepts connections and never answers: a stalled DynamoDB.
    blackHole = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackHole.close(resolve));
  });

  it('a DynamoDB that never answers is given up after maxAttempts timeouts: 503, well inside the Lambda timeout', async () => {
    // Prepare
    const client = await owner();
    const id = (await client.post('/api/v1/spaces', { name: 'Stalled' })).body.data.id;
    const port = (blackHole.address() as { port: number }).port;
    const fault = inject({ when: touches(client.owner, 'GetItem'), redirectToPort: port });
    const started = performance.now();
    // Act
    const reply = await client.get(`/api/v1/spaces/${id}`);
    const elapsed = performance.now() - started;
    // Assess
    expectUnavailable(reply);
    expect(fault.attempts).toBe(dynamoClientConfig.maxAttempts);
    expect(elapsed).toBeGreaterThanOrEqual(
      dynamoClientConfig.maxAttempts * dynamoClientConfig.requestHandler.requestTimeout - 100,
    );
    expect(elapsed).toBeLessThan(stages.prod.functions.timeout.toMilliseconds());
  }, 20_000);

  it('a refused connection is retried and then a 503', async () => {
    // Prepare
    const client = await owner();
    const fault = inject({ when: touches(client.owner, 'Query'), redirectToPort: await freePort() });
    // Act
    const reply = await client.get('/api/v1/domains');
    // Assess
    expectUnavailable(reply);
    expect(fault.attempts).toBe(dynamoClientConfig.maxAttempts);
  });
});

describe('the authorizer fails closed', () => {
  const lookupFails = (make: () => Error) =>
    inject({
      when: (call) => call.operation === 'GetItem' && JSON.stringify(call.body).includes('APIKEY#'),
      before: make,
    });

  const event = (authorization: string): APIGatewayRequestAuthorizerEvent =>
    ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:123456789012:api-id/prod/GET/api/v1/spaces',
      headers: { Authorization: authorization },
      requestContext: { requestId: 'reliability' },
    }) as unknown as APIGatewayRequestAuthorizerEvent;

  it.each([
    ['InternalServerError', serverError],
    ['throttling', throttled],
  ])('invoked directly, a failed key lookup (%s) throws; it never returns a policy', async (_, make) => {
    // Prepare
    const client = await owner();
    lookupFails(make);
    // Act
    const outcome = await createAuthorizer(
      config,
      db,
    )(event(`Bearer ${client.key}`)).then(
      (policy) => ({ policy }),
      (error: Error) => ({ error }),
    );
    // Assess
    expect(outcome).not.toHaveProperty('policy');
    const { error } = outcome as { error: Error };
    // Not 'Unauthorized' (a 401 would tell the client its valid key is wrong): API Gateway answers 5xx.
    expect(error.message).not.toBe('Unauthorized');
    expect(`${error.message} ${error.stack}`).not.toContain(client.key);
  });

  it('over the gateway, a failed key lookup is a 503 with Retry-After, then the key works again', async () => {
    // Prepare
    const client = await owner();
    const fault = lookupFails(serverError);
    // Act
    const during = await client.get('/api/v1/spaces');
    fault.remove();
    const after = await client.get('/api/v1/spaces');
    // Assess
    expectUnavailable(during);
    expect(after.status).toBe(200);
  });
});
