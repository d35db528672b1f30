/**
 * The write path every change goes through: one helper adds to the change's own transaction
 *
 * - the change's **event** (`EVENT#<id>`, 30 days), whose id is the owner's next event id;
 * - the owner's **event sequence** (`SEQUENCE#event`), moved from the id read when the write began to the
 *   event's id, on the condition that it still holds the id read;
 * - the request's **idempotency record** (`IDEMPOTENCY#<key>`, 24 hours) when the request carries a key,
 *   on the condition that the key has none.
 *
 * All of it commits or none of it: a write that fails leaves no event and no record, and a write that
 * commits cannot lose its event or its record.
 *
 * **Why the feed never skips an event.** The sequence condition serialises an owner's changes: event `n + 1`
 * can only commit after event `n` did (its transaction requires the sequence to read `n`), so events commit
 * in id order and ids have no gaps. A reader that first reads the sequence (`n`) and then queries up to `n`
 * sees every event up to `n` (they committed before the sequence said `n`) and nothing that could still
 * commit below an id it returns. Ids handed out before the transaction (from a counter) could commit out of
 * order, and a poller that saw `n + 1` would then miss `n`. The price: concurrent writes by one owner race for
 * the sequence; the loser learns the new value from its failed condition (no read) and tries again.
 *
 * **Why no "in progress" marker for idempotency keys.** The transaction is the request's only write, so
 * whichever of two requests with one key commits first is the one that wrote; the other's transaction is
 * cancelled as a whole by the record's condition, and it answers the recorded outcome instead. There is no
 * moment at which the write exists without its record.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { ConflictError, IdempotencyKeyReusedError, ServiceUnavailableError } from '#lib/errors.ts';
import { presentDomain, presentSpace } from '#lib/resources.ts';
import { tableDefinition } from '#lib/table.ts';
import type { StoredItem } from './collection.ts';
import { eventKey, eventSequenceKey, idempotencyKey, type Kind } from './keys.ts';
import { IdempotentReplay, type RecordedOutcome } from './outcome.ts';
import { type FailedConditions, type TransactItem, type TransactItems, transactWriteItems } from './transact.ts';
import type { VersionMatch } from './version.ts';

export const EVENT_RETENTION_DAYS = 30;
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/** Every kind of change an event reports. */
export const eventTypes = [
  'space.created',
  'space.updated',
  'space.deleted',
  'domain.created',
  'domain.updated',
  'domain.verified',
  'domain.deleted',
] as const;
export type EventType = (typeof eventTypes)[number];

/** A request with an idempotency key: what identifies it, and the answer to record once its write is known. */
export type IdempotentRequest<Result> = {
  key: string;
  /** A hash of the method, path and body: the same key with another request is refused. */
  fingerprint: string;
  outcome: (result: Result) => RecordedOutcome;
};

/** What a request adds to a write: its preconditions and its idempotency key. */
export type WriteOptions<Result> = { ifMatch?: VersionMatch; idempotency?: IdempotentRequest<Result> };

/** A change under way: the owner's last event id when it began, and the request's idempotency key. */
export type Change<Result> = {
  owner: string;
  sequence: number;
  idempotency: IdempotentRequest<Result> | undefined;
};

/** An event as the change feed serves it. */
export type FeedEvent = { id: string; type: EventType; created_at: string; data: unknown };

const { timeToLiveAttribute } = tableDefinition;
const SECOND = 1000;

/** The resource an event carries, as the API shows it. */
const presenters: Record<Kind, (item: never) => unknown> = { space: presentSpace, domain: presentDomain };
export const eventData = (kind: Kind, item: StoredItem) => presenters[kind](item as never);

async function readItem(db: Db, key: { pk: string; sk: string }) {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  return Item;
}

/** The owner's last event id (0 before the first). */
export async function readEventSequence(db: Db, owner: string): Promise<number> {
  return ((await readItem(db, eventSequenceKey(owner)))?.last as number | undefined) ?? 0;
}

const live = (record: Record<string, unknown> | undefined, now = Date.now()) =>
  record && Number(record[timeToLiveAttribute]) * SECOND > now ? record : undefined;

/** Answers a request whose key has a record: its outcome again, or 422 when the key was used for another request. */
function replay(record: Record<string, unknown>, request: IdempotentRequest<unknown>): never {
  if (record.fingerprint !== request.fingerprint) throw new IdempotencyKeyReusedError();
  throw new IdempotentReplay({
    statusCode: record.statusCode as number,
    body: JSON.parse(record.body as string),
    headers: (record.headers as Record<string, string> | undefined) ?? {},
  });
}

/**
 * Begins a change: reads the owner's event sequence and, for a request with an idempotency key, the key's
 * record, in parallel (callers read what they need at the same time). A key with a record ends the request
 * here: its outcome is replayed, or it was used for another request.
 */
export async function beginChange<Result>(
  db: Db,
  owner: string,
  options: WriteOptions<Result> = {},
): Promise<Change<Result>> {
  const { idempotency } = options;
  const [sequence, record] = await Promise.all([
    readEventSequence(db, owner),
    idempotency ? readItem(db, idempotencyKey(owner, idempotency.key)) : undefined,
  ]);
  const recorded = live(record);
  if (idempotency && recorded) replay(recorded, idempotency as IdempotentRequest<unknown>);
  return { owner, sequence, idempotency };
}

/** The event of a change: which, the resource it concerns (after the change; the last state for a delete). */
export type ChangeEvent = { type: EventType; kind: Kind; item: StoredItem; version: number };

function eventItems(db: Db, owner: string, sequence: number, event: ChangeEvent, now: Date): TransactItem[] {
  const id = sequence + 1;
  const expiresAt = Math.floor(now.getTime() / SECOND) + EVENT_RETENTION_DAYS * 24 * 3600;
  return [
    {
      Update: {
        TableName: db.tableName,
        Key: eventSequenceKey(owner),
        UpdateExpression: 'SET #last = :id',
        ConditionExpression: sequence === 0 ? 'attribute_not_exists(#last)' : '#last = :sequence',
        ExpressionAttributeNames: { '#last': 'last' },
        ExpressionAttributeValues: { ':id': id, ...(sequence === 0 ? {} : { ':sequence': sequence }) },
        // A lost race returns the sequence's new value: the retry needs no read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: db.tableName,
        Item: {
          ...eventKey(owner, id),
          kind: 'event',
          eventId: id,
          type: event.type,
          createdAt: now.toISOString(),
          data: eventData(event.kind, event.item),
          // The resource's version after the change: the consistency checker follows each resource's versions.
          version: event.version,
          [timeToLiveAttribute]: expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

function recordItem<Result>(db: Db, owner: string, request: IdempotentRequest<Result>, result: Result, now: Date) {
  const outcome = request.outcome(result);
  const seconds = Math.floor(now.getTime() / SECOND);
  return {
    Put: {
      TableName: db.tableName,
      Item: {
        ...idempotencyKey(owner, request.key),
        kind: 'idempotency',
        fingerprint: request.fingerprint,
        statusCode: outcome.statusCode,
        body: JSON.stringify(outcome.body),
        headers: outcome.headers,
        createdAt: now.toISOString(),
        [timeToLiveAttribute]: seconds + IDEMPOTENCY_RETENTION_HOURS * 3600,
      },
      // An expired record that TTL has not deleted yet no longer holds the key.
      ConditionExpression: 'attribute_not_exists(pk) OR #expiresAt < :now',
      ExpressionAttributeNames: { '#expiresAt': timeToLiveAttribute },
      ExpressionAttributeValues: { ':now': seconds },
    },
  } satisfies TransactItem;
}

/**
 * Sequence races are retried until this long after the change began; then 503. Each lost race means another
 * change of the owner committed, so the owner's writes always progress; this bounds one request's wait.
 */
const SEQUENCE_RACE_BUDGET_MS = 5_000;
const RACE_BACKOFF_BASE_MS = 4;
const RACE_BACKOFF_CAP_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Commits a change: `items` (the write itself) with its event, the event sequence and the idempotency record,
 * in one transaction. Returns null when it committed, or which of `items` failed their condition (the caller
 * says what that means). A lost sequence race is retried here; a request whose key another request took
 * meanwhile answers that request's outcome (or 422, or 409 if the record cannot be read).
 */
export async function commitChange<Result>(
  db: Db,
  change: Change<Result>,
  items: TransactItems,
  event: ChangeEvent,
  result: Result,
): Promise<FailedConditions | null> {
  const { owner, idempotency } = change;
  const deadline = Date.now() + SEQUENCE_RACE_BUDGET_MS;
  for (let attempt = 1; ; attempt++) {
    const now = new Date();
    const extra = eventItems(db, owner, change.sequence, event, now);
    if (idempotency) extra.push(recordItem(db, owner, idempotency, result, now));
    const cancelled = await transactWriteItems(db, [...items, ...extra]);
    if (!cancelled) {
      change.sequence += 1;
      return null;
    }
    const { failed, items: returned } = cancelled;
    const [sequenceAt, eventAt, recordAt] = [items.length, items.length + 1, items.length + 2];
    if (idempotency && failed[recordAt]) {
      const record = live(await readItem(db, idempotencyKey(owner, idempotency.key)));
      if (record) replay(record, idempotency as IdempotentRequest<unknown>);
      throw new ConflictError();
    }
    const own = failed.slice(0, items.length);
    if (own.some(Boolean)) return own;
    if (failed[eventAt] && !failed[sequenceAt]) {
      throw new Error(`Event ${change.sequence + 1} of ${owner} exists beyond its sequence`);
    }
    // Another change of this owner committed first: take the sequence it left and try again.
    change.sequence = (returned[sequenceAt]?.last as number | undefined) ?? (await readEventSequence(db, owner));
    if (Date.now() > deadline) throw new ServiceUnavailableError();
    await sleep(Math.random() * Math.min(RACE_BACKOFF_CAP_MS, RACE_BACKOFF_BASE_MS * 2 ** attempt));
  }
}
