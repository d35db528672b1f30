/**
 * A DynamoDB-faithful test harness: an HTTP proxy in front of DynamoDB Local, started in-process by a test file,
 * that models two things DynamoDB Local is kinder about than real DynamoDB, so that the write path and the change
 * feed are tested against real semantics:
 * - transaction conflicts (harness/conflicts.ts): a transaction is in flight from its arrival (held for a random
 *   `inFlightMs`, as a DynamoDB transaction takes milliseconds) until the target answers; a transaction, a
 *   TransactGetItems or a single-item write touching one of its items is refused as DynamoDB refuses it, without
 *   being forwarded; and `randomRate` of the transactions are cancelled with a conflict of their own;
 * - per-item visibility (harness/visibility.ts, harness/reads.ts): a committed transaction's items become visible
 *   to GetItem, BatchGetItem, Query and Scan one by one, each at its own time; TransactGetItems and all writes see
 *   the committed state.
 * Everything else is forwarded as is. What is not modelled is listed in those files' headers; besides, only
 * DynamoDB's JSON protocol is read, and the target must be DynamoDB Local: requests keep their signature, which a
 * read whose projection the harness extends no longer matches (DynamoDB Local does not check signatures).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  batchWriteTouches,
  InFlight,
  singleWriteTouch,
  type Touch,
  transactionTables,
  transactionTouches,
} from './harness/conflicts.ts';
import {
  type Answer,
  type Json,
  jsonAnswer,
  operationOf,
  type TableSchema,
  transactionCanceled,
  transactionConflict,
} from './harness/protocol.ts';
import { between, seededRandom } from './harness/random.ts';
import { planRead, readOperations, readTables } from './harness/reads.ts';
import { connectTarget } from './harness/target.ts';
import { Visibility } from './harness/visibility.ts';

export type ConflictSettings = {
  /** How long a transaction stays in flight before it is forwarded, in ms: [least, most]. */
  inFlightMs: readonly [number, number];
  /** The share of transactions cancelled with a TransactionConflict of their own (0 to 1). */
  randomRate: number;
};
/**
 * Each item of a committed transaction becomes visible within this many ms of the commit. `answer`: when the
 * writer gets its answer: once every item is visible (`visible`, the default, as on DynamoDB, where a
 * transaction is applied item by item before TransactWriteItems returns, so a writer reads its own writes and
 * the transaction stays in flight until then), or at once (`commit`, stricter: even the writer may read an
 * older image for a while).
 */
export type VisibilitySettings = { maxDelayMs: number; answer?: 'visible' | 'commit' };
/** `false` turns a model off (for a setup phase, say): requests are then forwarded as DynamoDB Local takes them. */
export type HarnessSettings = { conflicts: ConflictSettings | false; visibility: VisibilitySettings | false };
export type HarnessOptions = Partial<HarnessSettings> & {
  /** DynamoDB Local's endpoint. */
  target: string;
  /** Makes the harness's draws (delays, cancellations) repeatable. */
  seed?: number;
};

export type HarnessStats = {
  requests: number;
  transactions: number;
  committed: number;
  /** Transactions cancelled because an item of theirs was in flight. */
  conflictsInjected: number;
  /** Transactions cancelled at random (`randomRate`). */
  conflictsRandom: number;
  /** TransactGetItems cancelled because an item of theirs was in flight. */
  transactGetConflicts: number;
  /** PutItem, UpdateItem and DeleteItem refused with TransactionConflictException. */
  writeConflicts: number;
  /** Reads whose answer was rewritten to serve older images than the target's. */
  hiddenReads: number;
  /** Items those reads were served older images of (replaced, dropped or put back). */
  hiddenItems: number;
};

export type Harness = {
  /** `http://127.0.0.1:<port>`: the endpoint to give the SDK (DYNAMODB_ENDPOINT) or a child process. */
  endpoint: string;
  stats: Readonly<HarnessStats>;
  configure(settings: Partial<HarnessSettings>): void;
  stop(): Promise<void>;
};

/**
 * What the harnessed test suites and the contention benchmark run against: transactions in flight 1-6 ms,
 * 2 % cancelled at random besides real overlaps, and each item of a committed transaction visible within 25 ms.
 */
export const FAITHFUL: HarnessSettings = {
  conflicts: { inFlightMs: [1, 6], randomRate: 0.02 },
  visibility: { maxDelayMs: 25 },
};

const defaults: HarnessSettings = { conflicts: { inFlightMs: [2, 10], randomRate: 0 }, visibility: { maxDelayMs: 40 } };

export async function startHarness(options: HarnessOptions): Promise<Harness> {
  const settings: HarnessSettings = {
    conflicts: options.conflicts ?? defaults.conflicts,
    visibility: options.visibility ?? defaults.visibility,
  };
  const random = seededRandom(options.seed ?? Math.floor(Math.random() * 2 ** 32));
  const target = connectTarget(options.target);
  const inFlight = new InFlight();
  const visibility = new Visibility();
  const stats: HarnessStats = {
    requests: 0,
    transactions: 0,
    committed: 0,
    conflictsInjected: 0,
    conflictsRandom: 0,
    transactGetConflicts: 0,
    writeConflicts: 0,
    hiddenReads: 0,
    hiddenItems: 0,
  };
  let transactionCount = 0;

  /** Key schemas of the tables a request names; a table the target does not know is left out (it will say so). */
  async function schemasOf(tables: string[], authorization: string | undefined) {
    const found = await Promise.all(
      [...new Set(tables)].map(async (table) => [table, await target.schemaOf(table, authorization).catch(() => {})]),
    );
    return new Map(found.filter((entry): entry is [string, TableSchema] => entry[1] !== undefined));
  }

  /** Serves the transaction's items as they are now until it commits; false when their images cannot be read. */
  async function hide(owner: number, writes: Touch[], authorization: string | undefined): Promise<boolean> {
    try {
      const images = await target.images(writes, authorization);
      visibility.begin(
        owner,
        writes.map(({ id, table, key }, index) => ({ id, table, key, image: images[index] })),
      );
      return true;
    } catch {
      // A request the target will refuse anyway (unknown table, malformed key): there is nothing to hide.
      return false;
    }
  }

  /** Forwards a non-transactional write; once it succeeded, its items are visible as the target has them. */
  async function write(headers: IncomingHttpHeaders, body: Buffer, touches: Touch[]): Promise<Answer> {
    const answer = await target.forward(headers, body);
    if (answer.status === 200) visibility.reveal(touches.map((touch) => touch.id));
    return answer;
  }

  async function transactWrite(headers: IncomingHttpHeaders, body: Buffer, request: Json, authorization?: string) {
    stats.transactions += 1;
    const touches = transactionTouches(request, await schemasOf(transactionTables(request), authorization));
    const conflicts = settings.conflicts;
    if (conflicts) {
      // No await between this check and `hold`: two transactions cannot both find an item free.
      const overlaps = inFlight.overlaps(touches);
      if (overlaps.some(Boolean)) {
        stats.conflictsInjected += 1;
        return transactionCanceled(overlaps.map((overlap) => (overlap ? 'TransactionConflict' : 'None')));
      }
      if (random() < conflicts.randomRate) {
        stats.conflictsRandom += 1;
        const at = Math.floor(random() * touches.length);
        return transactionCanceled(touches.map((_, index) => (index === at ? 'TransactionConflict' : 'None')));
      }
      inFlight.hold(touches);
    }
    transactionCount += 1;
    const owner = transactionCount;
    try {
      const hidden = settings.visibility
        ? await hide(
            owner,
            touches.filter((touch) => touch.writes),
            authorization,
          )
        : false;
      if (conflicts) await sleep(between(random, conflicts.inFlightMs));
      const answer = await target.forward(headers, body);
      const reveal = settings.visibility;
      if (answer.status === 200) stats.committed += 1;
      if (answer.status === 200 && hidden && reveal) {
        const visible = visibility.commit(owner, () => Date.now() + random() * reveal.maxDelayMs);
        if (reveal.answer !== 'commit') await sleep(Math.max(0, visible - Date.now()));
      } else visibility.abort(owner);
      return answer;
    } finally {
      if (conflicts) inFlight.release(touches);
    }
  }

  async function read(operation: string, headers: IncomingHttpHeaders, body: Buffer, request: Json, auth?: string) {
    const plan = planRead(operation, request, await schemasOf(readTables(operation, request), auth), visibility);
    if (!plan) return target.forward(headers, body);
    const answer = await target.forward(headers, plan.augmented ? Buffer.from(JSON.stringify(plan.request)) : body);
    if (answer.status !== 200) return answer;
    const response = JSON.parse(answer.body.toString()) as Json;
    const original = JSON.stringify(response);
    const hidden = plan.finish(response);
    // A before-image equal to what the target answered (the read ran before the write applied) hides nothing.
    const changed = JSON.stringify(response) !== original;
    if (hidden > 0 && changed) {
      stats.hiddenReads += 1;
      stats.hiddenItems += hidden;
    }
    return changed || plan.augmented ? jsonAnswer(200, response, answer.headers) : answer;
  }

  async function answer(headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
    stats.requests += 1;
    const operation = operationOf(headers['x-amz-target']) ?? '';
    const authorization = headers.authorization;
    let request: Json;
    try {
      request = JSON.parse(body.toString()) as Json;
    } catch {
      return target.forward(headers, body);
    }
    if (operation === 'TransactWriteItems') return transactWrite(headers, body, request, authorization);
    if (operation === 'TransactGetItems' && settings.conflicts) {
      const overlaps = inFlight.overlaps(transactionTouches(request, new Map()));
      if (overlaps.some(Boolean)) {
        stats.transactGetConflicts += 1;
        return transactionCanceled(overlaps.map((overlap) => (overlap ? 'TransactionConflict' : 'None')));
      }
    }
    if (operation === 'PutItem' || operation === 'UpdateItem' || operation === 'DeleteItem') {
      const touch = singleWriteTouch(request, await schemasOf([String(request.TableName)], authorization));
      if (settings.conflicts && inFlight.has(touch.id)) {
        stats.writeConflicts += 1;
        return transactionConflict();
      }
      return write(headers, body, [touch]);
    }
    if (operation === 'BatchWriteItem') {
      const tables = Object.keys((request.RequestItems ?? {}) as Json);
      return write(headers, body, batchWriteTouches(request, await schemasOf(tables, authorization)));
    }
    if (readOperations.has(operation) && settings.visibility) {
      return read(operation, headers, body, request, authorization);
    }
    return target.forward(headers, body);
  }

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      answer(incoming.headers, Buffer.concat(chunks))
        .catch((error: unknown) =>
          jsonAnswer(500, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: `${error}` }),
        )
        .then(({ status, headers, body }) => {
          outgoing.writeHead(status, headers);
          outgoing.end(body);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    configure(changes) {
      if (changes.conflicts !== undefined) settings.conflicts = changes.conflicts;
      if (changes.visibility !== undefined) settings.visibility = changes.visibility;
      if (changes.visibility === false) visibility.clear();
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      target.close();
    },
  };
}
