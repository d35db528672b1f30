/**
 * Sections 2 and 3, run in a fresh process against DynamoDB Local: every operation invoked in-process with a
 * realistic API Gateway event, timed in total and inside DynamoDB calls (overhead = total − DynamoDB), and the
 * DynamoDB calls each one makes counted, next to the design's target.
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME (an existing, empty table), CURSOR_SECRET and EDGE_HOSTNAME (the domain
 * functions' CNAME target).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { create as createAuthorizer } from '#functions/authorizer.ts';
import { matchRoute } from '#infra/local/routing.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import {
  type ApiHandler,
  type AuthorizerHandler,
  apiEvent,
  authorizerEvent,
  authorizerName,
  DynamoRecorder,
  lambdaContext,
  loadFunction,
} from './lambda.ts';
import { median, percentile, progress, quick, round, writeResult } from './support.ts';

export const OVERHEAD_BUDGET_MS = 1;

/** The design's minimum DynamoDB work per operation, and why it cannot be less. */
export const designTargets: Record<string, { calls: number; rounds: number; reason: string }> = {
  'show-space': { calls: 1, rounds: 1, reason: 'GetItem by key (owner partition + id), strongly consistent.' },
  'show-domain': { calls: 1, rounds: 1, reason: 'GetItem by key (owner partition + id), strongly consistent.' },
  'show-space (If-None-Match, 304)': {
    calls: 1,
    rounds: 1,
    reason: 'The same GetItem: the ETag is the item’s version, compared in the handler.',
  },
  'update-space': {
    calls: 3,
    rounds: 2,
    reason:
      'GetItem of the item (its event carries the whole resource after the change, and a transaction returns nothing) in parallel with GetItem of the owner’s feed head; TransactWriteItems then puts the item on the condition that its version is the one read, puts the event and moves the feed head from the value read to one more.',
  },
  'update-space (rename)': {
    calls: 3,
    rounds: 2,
    reason:
      'As an update; the transaction also deletes the old name guard and puts the new one. (Before: a failed conditional UpdateItem returned the old item, then the transaction.)',
  },
  'update-domain': {
    calls: 3,
    rounds: 2,
    reason:
      'As update-space; the "page must not point at the domain itself" check uses the name read (names never change).',
  },
  'list-spaces': {
    calls: 2,
    rounds: 1,
    reason:
      'Query for one page (Limit = per_page, from the cursor position) in parallel with GetItem of the owner counter (meta.total): one round trip of latency.',
  },
  'list-domains': {
    calls: 2,
    rounds: 1,
    reason: 'Query for one page in parallel with GetItem of the owner counter: one round trip of latency.',
  },
  'store-space': {
    calls: 3,
    rounds: 2,
    reason:
      'UpdateItem ADD on the owner sequence allocates the id (it is part of the key, and a transaction cannot return values) in parallel with GetItem of the owner’s feed head (the next event id); TransactWriteItems then puts the item, its name guard and its event, bumps the counter under the quota condition and moves the feed head, all or nothing.',
  },
  'store-space (Idempotency-Key)': {
    calls: 4,
    rounds: 3,
    reason:
      'GetItem of the key’s record in parallel with GetItem of the feed head; the id only then (UpdateItem), as a request whose key has a record is a replay, which must use up no id; then the transaction, which also puts the record (the answer, recorded with the write). A replay is the first round trip alone.',
  },
  'store-domain': {
    calls: 3,
    rounds: 2,
    reason:
      "UpdateItem for the id and GetItem of the feed head in parallel, then TransactWriteItems: item + the owner's name guard + ConditionCheck that no active domain holds the global name guard + event + counter under quota + feed head.",
  },
  'destroy-space': {
    calls: 3,
    rounds: 2,
    reason:
      "GetItem reads the item (the guard's key depends on its name, the event carries its last state) in parallel with GetItem of the feed head; TransactWriteItems deletes the item (if its version is unchanged) and its guard, puts the event, decrements the counter and moves the feed head.",
  },
  'destroy-domain': {
    calls: 3,
    rounds: 2,
    reason:
      'GetItem of the item (name, status, last state) and of the feed head in parallel, then TransactWriteItems: item (version unchanged) + the name guards its status holds + event + counter + feed head.',
  },
  'list-events': {
    calls: 2,
    rounds: 2,
    reason:
      'GetItem of the feed head first (the events up to it are gapless), then one Query of the events after the cursor up to it; the page stops at the first id not visible yet.',
  },
  authorizer: {
    calls: 1,
    rounds: 1,
    reason:
      "GetItem of the key hash, strongly consistent; a revoked or expired key is refused once API Gateway's cached answer for it expires (the stage's authorizer cache TTL). The key's last use is recorded at most once an hour, so nearly every run only reads (the next row is the run that writes).",
  },
  'authorizer (recording last use)': {
    calls: 2,
    rounds: 2,
    reason:
      "A key's first run in an hour: after the GetItem (which tells whether its recorded use is over an hour old), a conditional UpdateItem records the use; the answer waits for it 25 ms at most.",
  },
  'authorizer (no last-use recording)': {
    calls: 1,
    rounds: 1,
    reason: 'The same authorizer with last-use recording off, to show what recording costs.',
  },
};

/** A percentile pooled over every measured invocation, with its range over consecutive blocks of them. */
export type Spread = { value: number; min: number; max: number };

export type OperationResult = {
  name: string;
  invocations: number;
  totalP50: Spread;
  totalP99: Spread;
  dynamoP50: Spread;
  overheadP50: Spread;
  overheadP99: Spread;
  /** SDK work on our side of the wire (marshalling, signing, parsing): inside `send`, outside the HTTP exchange. */
  sdkClientP50: Spread;
  overheadShareP50: number;
  calls: { commands: string[]; count: number; min: number; max: number; roundTrips: number };
  /** Capacity units per invocation (median), as DynamoDB (Local) reports them: transactions cost two per item. */
  capacity: { write: number; read: number };
  target: { calls: number; rounds: number; reason: string };
};

export type HandlerSection = {
  invocations: number;
  warmup: number;
  blocks: number;
  overheadBudgetMs: number;
  operations: OperationResult[];
};

type Sample = {
  total: number;
  sdk: number;
  http: number;
  commands: string;
  rounds: number;
  write: number;
  read: number;
};

const invocations = Number(process.env.BENCH_INVOCATIONS ?? (quick ? 200 : 2_000));
/** The operations of the change feed issue (idempotency keys, conditional requests, the feed) exist. */
const changeFeed = matchRoute('GET', '/api/v1/events') !== undefined;
const warmup = quick ? 20 : 200;
/** The measured invocations are also cut into this many consecutive blocks, to show how stable a figure is. */
const blocks = 4;

function spread(samples: Sample[], pick: (sample: Sample) => number, p: number): Spread {
  const size = Math.ceil(samples.length / blocks);
  const perBlock = Array.from({ length: blocks }, (_, index) =>
    percentile(samples.slice(index * size, (index + 1) * size).map(pick), p),
  ).filter((value) => !Number.isNaN(value));
  return {
    value: round(percentile(samples.map(pick), p), 4),
    min: round(Math.min(...perBlock), 4),
    max: round(Math.max(...perBlock), 4),
  };
}

async function main() {
  const config = loadConfig(process.env);
  const db = createDb(config);
  const recorder = new DynamoRecorder({ capacity: true });
  const detach = recorder.attach(db.client.middlewareStack as never);

  const samples = new Map<string, Sample[]>();
  const handlers = new Map<string, ApiHandler>();
  const api = async (route: string) => {
    let handler = handlers.get(route);
    if (!handler) {
      handler = await loadFunction<ApiHandler>(route, config, db);
      handlers.set(route, handler);
    }
    return handler;
  };
  const authorize = await loadFunction<AuthorizerHandler>(authorizerName, config, db);
  // The deployed authorizer records a key's use at most once an hour: measured as deployed, it only reads after
  // its first run. The run that writes is measured with a resolution of 0 (every invocation writes), and the
  // authorizer without recording for comparison.
  const authorizeRecording = createAuthorizer(config, db, { lastUseResolutionSeconds: 0 });
  const authorizeWithout = createAuthorizer(config, db, { recordLastUse: false });

  /** Invokes one operation `warmup + invocations` times; keeps the replies, records the measured ones. */
  async function measure<Result>(
    name: string,
    count: number,
    invoke: (index: number) => Promise<Result>,
    check: (result: Result) => boolean,
  ): Promise<Result[]> {
    progress(`handlers: ${name}`);
    const kept: Sample[] = [];
    const results: Result[] = [];
    for (let index = 0; index < count; index++) {
      recorder.reset();
      const start = performance.now();
      const result = await invoke(index);
      const total = performance.now() - start;
      if (!check(result)) throw new Error(`${name}: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
      results.push(result);
      if (index < warmup) continue;
      const { write, read } = recorder.capacity();
      kept.push({
        total,
        sdk: recorder.sdkMs,
        http: recorder.httpMs,
        commands: recorder.commands().join(' + '),
        rounds: recorder.rounds,
        write,
        read,
      });
    }
    samples.set(name, kept);
    return results;
  }

  const call = (route: string, event: APIGatewayProxyEvent) =>
    api(route).then((handler) => handler(event, lambdaContext(route)));
  const status = (expected: number) => (result: APIGatewayProxyResult) => result.statusCode === expected;
  const idOf = (result: APIGatewayProxyResult) => (JSON.parse(result.body) as { data: { id: number } }).data.id;
  const count = warmup + invocations;

  {
    const tag = randomUUID().slice(0, 8);
    const owner = `bench-${tag}`;
    const { key } = await createApiKey(db, owner, 'benchmark');
    progress(`handlers: ${count} invocations per operation (${warmup} of them warm-up)`);

    for (const collection of ['spaces', 'domains'] as const) {
      const single = collection.slice(0, -1);
      const base = `/api/v1/${collection}`;
      const storeForm = (i: number): Record<string, string> =>
        collection === 'spaces'
          ? { name: `Space ${tag} ${i}`, color: String((i % 6) + 1) }
          : { name: `d${i}-${tag}.bench.example`, index_page: 'https://www.example.org/' };
      const stored = await measure(
        `store-${single}`,
        count,
        (i) => call(`${collection}/store`, apiEvent({ method: 'POST', url: base, owner, form: storeForm(i) })),
        status(201),
      );
      const ids = stored.map(idOf);
      const idAt = (i: number) => ids[i % ids.length] as number;
      if (collection === 'spaces' && changeFeed) {
        await measure(
          'store-space (Idempotency-Key)',
          count,
          (i) =>
            call(
              'spaces/store',
              apiEvent({
                method: 'POST',
                url: base,
                owner,
                form: { name: `Keyed ${tag} ${i}` },
                headers: { 'Idempotency-Key': `${tag}-${i}` },
              }),
            ),
          status(201),
        );
      }
      await measure(
        `show-${single}`,
        count,
        (i) => call(`${collection}/show`, apiEvent({ method: 'GET', url: `${base}/${idAt(i)}`, owner })),
        status(200),
      );
      if (collection === 'spaces' && changeFeed) {
        await measure(
          'show-space (If-None-Match, 304)',
          count,
          (i) =>
            call(
              'spaces/show',
              apiEvent({ method: 'GET', url: `${base}/${idAt(i)}`, owner, headers: { 'If-None-Match': '"1"' } }),
            ),
          status(304),
        );
      }
      const updateForm = (i: number): Record<string, string> =>
        collection === 'spaces'
          ? { color: String(((i + 1) % 6) + 1) }
          : { index_page: `https://www.example.org/${i}.html`, not_found_page: '' };
      await measure(
        `update-${single}`,
        count,
        (i) =>
          call(
            `${collection}/update`,
            apiEvent({ method: 'PATCH', url: `${base}/${idAt(i)}`, owner, form: updateForm(i) }),
          ),
        status(200),
      );
      if (collection === 'spaces') {
        await measure(
          'update-space (rename)',
          count,
          (i) =>
            call(
              'spaces/update',
              apiEvent({ method: 'PATCH', url: `${base}/${idAt(i)}`, owner, form: { name: `Renamed ${tag} ${i}` } }),
            ),
          status(200),
        );
      }
      await measure(
        `list-${collection}`,
        count,
        () => call(`${collection}/list`, apiEvent({ method: 'GET', url: base, owner })),
        status(200),
      );
      await measure(
        `destroy-${single}`,
        count,
        (i) => call(`${collection}/destroy`, apiEvent({ method: 'DELETE', url: `${base}/${idAt(i)}`, owner })),
        status(200),
      );
    }
    if (changeFeed) {
      await measure(
        'list-events',
        count,
        () => call('events/list', apiEvent({ method: 'GET', url: '/api/v1/events?per_page=10', owner })),
        status(200),
      );
    }
    const allowed = (result: APIGatewayAuthorizerResult) =>
      result.principalId === owner && result.policyDocument.Statement[0]?.Effect === 'Allow';
    await measure('authorizer', count, () => authorize(authorizerEvent(key), lambdaContext(authorizerName)), allowed);
    await measure('authorizer (recording last use)', count, () => authorizeRecording(authorizerEvent(key)), allowed);
    await measure('authorizer (no last-use recording)', count, () => authorizeWithout(authorizerEvent(key)), allowed);
  }
  detach();

  const operations = [...samples].map(([name, all]): OperationResult => {
    const overhead = (sample: Sample) => sample.total - sample.sdk;
    const signatures = new Map<string, number>();
    for (const sample of all) signatures.set(sample.commands, (signatures.get(sample.commands) ?? 0) + 1);
    const usual = [...signatures].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    const counts = all.map((sample) => (sample.commands === '' ? 0 : sample.commands.split(' + ').length));
    const totalP50 = spread(all, (sample) => sample.total, 50);
    const overheadP50 = spread(all, overhead, 50);
    return {
      name,
      invocations: all.length,
      totalP50,
      totalP99: spread(all, (sample) => sample.total, 99),
      dynamoP50: spread(all, (sample) => sample.sdk, 50),
      overheadP50,
      overheadP99: spread(all, overhead, 99),
      sdkClientP50: spread(all, (sample) => sample.sdk - sample.http, 50),
      overheadShareP50: round(overheadP50.value / totalP50.value, 4),
      calls: {
        commands: usual.split(' + '),
        count: median(counts),
        min: Math.min(...counts),
        max: Math.max(...counts),
        roundTrips: median(all.map((sample) => sample.rounds)),
      },
      capacity: {
        write: median(all.map((sample) => sample.write)),
        read: median(all.map((sample) => sample.read)),
      },
      target: designTargets[name] ?? { calls: Number.NaN, rounds: Number.NaN, reason: 'no target' },
    };
  });
  const result: HandlerSection = { invocations, warmup, blocks, overheadBudgetMs: OVERHEAD_BUDGET_MS, operations };
  writeResult(result);
  db.client.destroy();
}

await main();
