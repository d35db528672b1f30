/**
 * The write path every change goes through (`commitChange`): one transaction holds, by name,
 *
 * - the change's own parts (the item, its name guards, the counter…: the caller's plan);
 * - `sequence`: the owner's feed head moved from the value read to one more (`feed-head.ts`);
 * - `event`: the event with that id (`EVENT#<id>`, kept `EVENT_RETENTION_DAYS`), carrying the item's record;
 * - `idempotency`: the request's record (`IDEMPOTENCY#<key>`, 24 hours), when it carries a key.
 *
 * All of it commits or none of it. Event ids are gapless per owner: two changes that read the same head cannot
 * both commit, so the feed's reader may stop at the first id it cannot see yet (it is committing) and never
 * step over one (`events.ts`). docs/events.md has the guarantees and the rejected designs.
 *
 * A change that loses (its condition failed because the state moved, or DynamoDB cancelled it for a
 * transaction in flight on the same items) reads again and retries with full-jitter backoff, within
 * `WRITE_BUDGET_MS` in all; then it gives up with nothing written (`WriteContended`: a 503 with Retry-After).
 * A retried change never writes twice: each attempt is conditional on the state it read.
 *
 * Idempotency keys: the record is part of the write's own transaction, so whichever of two requests with one
 * key commits first is the one that wrote; the other is cancelled as a whole by the record's condition and
 * answers the recorded outcome instead. There is no moment at which the write exists without its record.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { tableDefinition } from '#lib/data/table.ts';
import type { EventType, Kind } from '#lib/kinds.ts';
import { again, retrying } from '#lib/platform/retry.ts';
import { IdempotencyKeyInFlight, IdempotencyKeyReused, WriteContended } from './errors.ts';
import { EVENT_RETENTION_DAYS } from './event-item.ts';
import { advanceHead, type FeedHead, readFeedHead } from './feed-head.ts';
import { eventRecordOf, type ResourceRecord } from './item.ts';
import { eventKey, idempotencyKey } from './keys.ts';
import { RecordedAnswerReplay, type Written } from './outcome.ts';
import { type Parts, type TransactPart, transact } from './transaction.ts';
import type { VersionMatch } from './version.ts';

export const IDEMPOTENCY_RETENTION_HOURS = 24;

/** A request's whole budget for retrying a contended write; well inside the function's timeout. */
export const WRITE_BUDGET_MS = 4_000;
/**
 * Full-jitter backoff: the n-th retry waits a random time below min(cap, base · 2^n). The cap shrinks from
 * `BACKOFF_CAP_MS` to `BACKOFF_FLOOR_MS` as the request's budget runs out, so a write that has waited long
 * tries more often than one just arrived: of many racing for one owner's head, the oldest tend to win, which
 * keeps the tail of waits (and the 503s at the end of the budget) short.
 */
const BACKOFF_BASE_MS = 5;
const BACKOFF_CAP_MS = 100;
const BACKOFF_FLOOR_MS = 4;
/** How long a replay waits for the record of the request that took its key to become readable. */
const RECORD_READ_ATTEMPTS = 3;
const RECORD_READ_PAUSE_MS = 50;

/** A request with an idempotency key: what identifies it. */
export type IdempotentRequest = {
  key: string;
  /** A hash of the method, path and body: the same key with another request is refused. */
  fingerprint: string;
};

/**
 * What a request adds to a write: its preconditions (the versions If-Match allows, those If-None-Match refuses)
 * and its idempotency key.
 */
export type WriteOptions = {
  ifMatch?: VersionMatch;
  ifNoneMatch?: VersionMatch;
  idempotency?: IdempotentRequest;
};

/** The event of a change: which, the resource it concerns (after the change; the last state for a delete). */
export type ChangeEvent = { type: EventType; kind: Kind; record: ResourceRecord; version: number };

/**
 * One attempt's write: its named parts, its event, what it answers, and what a failed condition means; or
 * nothing to write (`unchanged`: the change changes nothing), which answers `result` without a write, an event
 * or an idempotency record.
 */
export type ChangePlan<Result> =
  | {
      parts: Parts;
      event: ChangeEvent;
      result: Result;
      /** The error that failed conditions among `parts` mean, or `retry` when the state moved (read again). */
      failure: (failed: ReadonlySet<string>) => Error | 'retry';
    }
  | { unchanged: true; result: Result };

/**
 * A change: what it reads on each attempt, and the write it plans from that. `read` may wait for
 * `recorded()`, whether the request's idempotency key already has a record (read in the same round trip): a store
 * takes its id only when it has none, so a replay uses up no id.
 */
export type ChangeSteps<State, Result> = {
  read: (recorded: () => Promise<boolean>) => Promise<State>;
  plan: (state: State, now: Date) => ChangePlan<Result>;
};

const { timeToLiveAttribute } = tableDefinition;
const SECOND = 1000;
/** Names the change's own parts may not take. */
const RESERVED_PARTS = new Set(['sequence', 'event', 'idempotency']);

async function readItem(db: Db, key: { pk: string; sk: string }) {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  return Item;
}

const live = (record: Record<string, unknown> | undefined, now = Date.now()) =>
  record && Number(record[timeToLiveAttribute]) * SECOND > now ? record : undefined;

/**
 * What a request whose key has a record answers: the result recorded, as a replay; a refusal when the key was
 * another request's. A record from before records held results holds the answer itself (`RecordedAnswerReplay`).
 */
function replay<Result>(record: Record<string, unknown>, request: IdempotentRequest): Written<Result> {
  if (record.fingerprint !== request.fingerprint) throw new IdempotencyKeyReused();
  if (typeof record.result !== 'string') {
    throw new RecordedAnswerReplay({
      statusCode: record.statusCode as number,
      body: JSON.parse(record.body as string),
      headers: (record.headers as Record<string, string> | undefined) ?? {},
    });
  }
  return { result: JSON.parse(record.result) as Result, replayed: true };
}

async function readRecord(db: Db, owner: string, request: IdempotentRequest) {
  return live(await readItem(db, idempotencyKey(owner, request.key)));
}

/**
 * The recorded result when the request's key has one (or a refusal of a key used for another request), else
 * undefined; for a request that does work before its change begins (a DNS lookup) and must not do it again on a
 * retry. `commitChange` checks again, and the record's condition decides a race.
 */
export async function replayIfRecorded<Result>(
  db: Db,
  owner: string,
  options: WriteOptions,
): Promise<Written<Result> | undefined> {
  const { idempotency } = options;
  if (!idempotency) return undefined;
  const recorded = await readRecord(db, owner, idempotency);
  return recorded && replay<Result>(recorded, idempotency);
}

/** The record of another request that took the key first: its result, once readable (it may lag a moment). */
function replayWinner<Result>(db: Db, owner: string, request: IdempotentRequest): Promise<Written<Result>> {
  return retrying(
    { attempts: RECORD_READ_ATTEMPTS, delayMs: () => RECORD_READ_PAUSE_MS },
    async () => {
      const record = await readRecord(db, owner, request);
      return record ? replay<Result>(record, request) : again;
    },
    () => new IdempotencyKeyInFlight(),
  );
}

function eventPart(db: Db, owner: string, id: number, event: ChangeEvent, now: Date): TransactPart {
  const record = eventRecordOf(event.record);
  return {
    Put: {
      TableName: db.tableName,
      Item: {
        ...eventKey(owner, id),
        kind: 'event',
        eventId: id,
        type: event.type,
        createdAt: now.toISOString(),
        resource: record,
        // The resource's version after the change: the consistency checker follows each resource's versions.
        version: event.version,
        [timeToLiveAttribute]: Math.floor(now.getTime() / SECOND) + EVENT_RETENTION_DAYS * 24 * 3600,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The request's record: its fingerprint and the write's result (JSON the HTTP layer answers from, every time). */
function recordPart<Result>(db: Db, owner: string, request: IdempotentRequest, result: Result, now: Date) {
  const seconds = Math.floor(now.getTime() / SECOND);
  return {
    Put: {
      TableName: db.tableName,
      Item: {
        ...idempotencyKey(owner, request.key),
        kind: 'idempotency',
        fingerprint: request.fingerprint,
        result: JSON.stringify(result),
        createdAt: now.toISOString(),
        [timeToLiveAttribute]: seconds + IDEMPOTENCY_RETENTION_HOURS * 3600,
      },
      // An expired record that TTL has not deleted yet no longer holds the key.
      ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
      ExpressionAttributeNames: { '#ttl': timeToLiveAttribute },
      ExpressionAttributeValues: { ':now': seconds },
    },
  } satisfies TransactPart;
}

/**
 * The changes of one owner that this process is committing, one at a time. On Lambda a process serves one
 * request at a time, so nobody waits here; where one process serves many (the local gateway, the tests),
 * their transactions would all move the owner's head at once and all but one would lose each round. Waiting
 * here costs no round trip; between processes, the head's condition decides.
 */
const ownerQueues = new WeakMap<Db, Map<string, Promise<void>>>();

async function inOwnerQueue<T>(db: Db, owner: string, work: () => Promise<T>): Promise<T> {
  const owners = ownerQueues.get(db) ?? new Map<string, Promise<void>>();
  ownerQueues.set(db, owners);
  const before = owners.get(owner) ?? Promise.resolve();
  let leave = () => {};
  const turn = new Promise<void>((resolve) => {
    leave = resolve;
  });
  const tail = before.then(() => turn);
  owners.set(owner, tail);
  await before;
  try {
    return await work();
  } finally {
    leave();
    if (owners.get(owner) === tail) owners.delete(owner);
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

type Attempt<Result> = { done: true; written: Written<Result> } | { done: false };

async function attemptChange<State, Result>(
  db: Db,
  owner: string,
  options: WriteOptions,
  steps: ChangeSteps<State, Result>,
): Promise<Attempt<Result>> {
  const { idempotency } = options;
  // Every attempt: an earlier one may have committed though its answer was lost (the SDK retried it, and the
  // retry was cancelled), and then the record, not the state, says what to answer.
  const recordRead = idempotency ? readRecord(db, owner, idempotency) : Promise.resolve(undefined);
  const headRead = readFeedHead(db, owner);
  // What `read` may wait for: the record, once the first round trip (the record and the head) is over.
  const recorded = () => Promise.all([recordRead, headRead]).then(([found]) => found !== undefined);
  const [state, head, record]: [Settled<State>, FeedHead, Record<string, unknown> | undefined] = await Promise.all([
    settle(steps.read(recorded)),
    headRead,
    recordRead,
  ]);
  // A request already answered is answered again, whatever the state is now (a retried delete finds no item).
  if (record && idempotency) return { done: true, written: replay<Result>(record, idempotency) };
  if (!state.ok) throw state.error;
  // After the reads: an event's time is never before the change it follows committed.
  const now = new Date();
  const plan = steps.plan(state.value, now);
  if ('unchanged' in plan) return { done: true, written: { result: plan.result, replayed: false } };
  const own = Object.keys(plan.parts);
  if (own.some((name) => RESERVED_PARTS.has(name))) throw new Error(`A change's part is named ${own.join(', ')}`);
  const outcome = await transact(db, {
    ...plan.parts,
    sequence: advanceHead(db, owner, head, now.getTime()),
    event: eventPart(db, owner, head.head + 1, plan.event, now),
    idempotency: idempotency && recordPart(db, owner, idempotency, plan.result, now),
  });
  if (outcome.outcome === 'committed') return { done: true, written: { result: plan.result, replayed: false } };
  if (outcome.outcome === 'conflict') return { done: false };
  const { failed } = outcome;
  if (idempotency && failed.has('idempotency')) {
    return { done: true, written: await replayWinner<Result>(db, owner, idempotency) };
  }
  const ownFailed = new Set(own.filter((name) => failed.has(name)));
  if (ownFailed.size > 0) {
    const meaning = plan.failure(ownFailed);
    if (meaning !== 'retry') throw meaning;
    return { done: false };
  }
  if (failed.has('sequence')) return { done: false };
  throw new Error(`Event ${head.head + 1} of ${owner} exists beyond its feed head`);
}

/** The backoff cap after `elapsedMs` of the budget: from `BACKOFF_CAP_MS` down to `BACKOFF_FLOOR_MS`. */
export function backoffCap(elapsedMs: number): number {
  const spent = Math.min(1, Math.max(0, elapsedMs / WRITE_BUDGET_MS));
  return BACKOFF_CAP_MS - (BACKOFF_CAP_MS - BACKOFF_FLOOR_MS) * spent;
}

/**
 * Commits a change: reads (the caller's state, the feed head and the request's idempotency record, on every
 * attempt), plans, and writes the plan with its event, the head and the record in one transaction. Returns
 * what the plan answers, or the recorded result of the request's key (`replayed`); throws what a failed
 * condition means, or `WriteContended` when the budget runs out.
 */
export async function commitChange<State, Result>(
  db: Db,
  owner: string,
  options: WriteOptions,
  steps: ChangeSteps<State, Result>,
): Promise<Written<Result>> {
  return retrying(
    {
      budgetMs: WRITE_BUDGET_MS,
      delayMs: (retry, elapsedMs) =>
        Math.random() * Math.min(backoffCap(elapsedMs), BACKOFF_BASE_MS * 2 ** (retry - 1)),
    },
    async () => {
      const attempt = await inOwnerQueue(db, owner, () => attemptChange(db, owner, options, steps));
      return attempt.done ? attempt.written : again;
    },
    () => new WriteContended(),
  );
}
