/**
 * The write path every change goes through: one helper adds to the change's own transaction
 *
 * - the change's **event** (`EVENT#<id>`, 30 days);
 * - the owner's **event sequence** (`SEQUENCE#event`), moved up to the event's id, on the condition that it is
 *   below it;
 * - the request's **idempotency record** (`IDEMPOTENCY#<key>`, 24 hours) when the request carries a key,
 *   on the condition that the key has none.
 *
 * All of it commits or none of it: a write that fails leaves no event and no record, and a write that
 * commits cannot lose its event or its record.
 *
 * **Why the feed lists changes in the order they committed, and a poller never misses one.** A change takes a
 * ticket when it begins (`SEQUENCE#event-ticket`, an atomic counter, in its first round trip, in parallel with
 * its other reads); the ticket is its event id. Its transaction requires the owner's sequence (the highest
 * event id committed) to be below its ticket, and sets it to its ticket. So ids only go up in commit order,
 * and once the sequence is at `n` no change with a lower ticket can ever commit: a change overtaken by a later
 * ticket fails that condition (evaluated with the rest of the change, after the later one) and tries again
 * with a new ticket, its own conditions evaluated again. A reader reads the sequence first and then only
 * events up to it: every id up to it is settled, committed or never to be (ids have gaps where a change
 * failed or was overtaken). Rejected alternatives: ids from a counter committed in any order let a poller
 * that saw `n + 1` miss `n` committing later, and a reader that waits at gaps stalls on every failed write;
 * a sequence that must be exactly one below (gapless ids) makes every change wait for the one just before
 * it, and a crashed one blocks its owner until someone passes its turn.
 *
 * The price: an owner's changes commit one at a time (DynamoDB serialises transactions on the sequence item,
 * as it already did on the per-kind counter for stores). Concurrent changes from different processes race
 * for it, and the losers retry (`MAX_OVERTAKEN`); changes from one process queue in ticket order (`Line`).
 *
 * **Why no "in progress" marker for idempotency keys.** The transaction is the request's only write, so
 * whichever of two requests with one key commits first is the one that wrote; the other's transaction is
 * cancelled as a whole by the record's condition, and it answers the recorded outcome instead. There is no
 * moment at which the write exists without its record.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { ConflictError, IdempotencyKeyReusedError, ServiceUnavailableError } from '#lib/errors.ts';
import { presentDomain, presentSpace } from '#lib/resources.ts';
import { tableDefinition } from '#lib/table.ts';
import type { StoredItem } from './collection.ts';
import { eventKey, eventSequenceKey, eventTicketKey, idempotencyKey, type Kind } from './keys.ts';
import { IdempotentReplay, type RecordedOutcome } from './outcome.ts';
import { type FailedConditions, type TransactItem, type TransactItems, transactWrite } from './transact.ts';
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

/** A change under way: its ticket (its event id, if it commits with it), and the request's idempotency key. */
export type Change<Result> = { owner: string; ticket: number; idempotency: IdempotentRequest<Result> | undefined };

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

/** The sequence of an item as read: the highest event id committed (0 before the first). */
const sequenceOf = (item: Record<string, unknown> | undefined): number => (item?.last as number | undefined) ?? 0;

/** The owner's event sequence: every id up to it is settled, committed or never to be. */
export async function readEventSequence(db: Db, owner: string): Promise<number> {
  return sequenceOf(await readItem(db, eventSequenceKey(owner)));
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
 * Replays the recorded outcome when the request's key has one (or refuses a key used for another request);
 * for a request that does work before its change begins (a DNS lookup) and must not do it again on a retry.
 * `beginChange` checks again, and the record's condition decides a race.
 */
export async function replayIfRecorded<Result>(db: Db, owner: string, options: WriteOptions<Result>): Promise<void> {
  const { idempotency } = options;
  if (!idempotency) return;
  const recorded = live(await readItem(db, idempotencyKey(owner, idempotency.key)));
  if (recorded) replay(recorded, idempotency as IdempotentRequest<unknown>);
}

/**
 * Takes the next ticket: an atomic counter of its own, apart from the sequence, so that taking one never waits
 * for a transaction that writes the sequence.
 */
async function takeTicket(db: Db, owner: string): Promise<number> {
  const { Attributes } = await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: eventTicketKey(owner),
      UpdateExpression: 'ADD #issued :one',
      ExpressionAttributeNames: { '#issued': 'issued' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Attributes?.issued as number;
}

/**
 * Begins a change: takes a ticket and, for a request with an idempotency key, reads the key's record, in
 * parallel (callers read what they need at the same time). A key with a record ends the request here: its
 * outcome is replayed, or it was used for another request.
 */
export async function beginChange<Result>(
  db: Db,
  owner: string,
  options: WriteOptions<Result> = {},
): Promise<Change<Result>> {
  const { idempotency } = options;
  const [ticket, record] = await Promise.all([
    takeTicket(db, owner),
    idempotency ? readItem(db, idempotencyKey(owner, idempotency.key)) : undefined,
  ]);
  const recorded = live(record);
  if (idempotency && recorded) replay(recorded, idempotency as IdempotentRequest<unknown>);
  return { owner, ticket, idempotency };
}

/** The event of a change: which, the resource it concerns (after the change; the last state for a delete). */
export type ChangeEvent = { type: EventType; kind: Kind; item: StoredItem; version: number };

function eventItems<Result>(db: Db, change: Change<Result>, event: ChangeEvent, now: Date): TransactItem[] {
  const { owner, ticket } = change;
  const expiresAt = Math.floor(now.getTime() / SECOND) + EVENT_RETENTION_DAYS * 24 * 3600;
  return [
    sequenceUpdate(db, owner, ticket),
    {
      Put: {
        TableName: db.tableName,
        Item: {
          ...eventKey(owner, ticket),
          kind: 'event',
          eventId: ticket,
          type: event.type,
          createdAt: now.toISOString(),
          // The resource as the API answers it, as JSON text: kept exactly, field order included.
          data: JSON.stringify(eventData(event.kind, event.item)),
          // The resource's version after the change: the consistency checker follows each resource's versions.
          version: event.version,
          [timeToLiveAttribute]: expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
}

/** Moves the sequence up to `ticket` if it is below it (no later change committed yet). */
function sequenceUpdate(db: Db, owner: string, ticket: number) {
  return {
    Update: {
      TableName: db.tableName,
      Key: eventSequenceKey(owner),
      UpdateExpression: 'SET #last = :ticket',
      ConditionExpression: 'attribute_not_exists(#last) OR #last < :ticket',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':ticket': ticket },
    },
  } satisfies TransactItem;
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
      ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
      ExpressionAttributeNames: { '#ttl': timeToLiveAttribute },
      ExpressionAttributeValues: { ':now': seconds },
    },
  } satisfies TransactItem;
}

/** A change overtaken by later ones takes a new ticket, at most this many times; then 503. */
const MAX_OVERTAKEN = 10;

/**
 * The changes of one owner that this process is committing: one transaction at a time, the lowest ticket
 * first. On Lambda a process serves one request at a time, so nobody ever waits here; where one process
 * serves many requests at once (the local gateway, the tests), their transactions would all write the
 * owner's sequence at once, and DynamoDB would cancel all but one of them each time. Waiting here costs no
 * round trip, and the sequence's condition still decides between processes.
 */
class Line {
  private busy = false;
  private readonly waiting: { ticket: number; go: () => void }[] = [];
  /** The highest ticket this process saw committed: a lower one can no longer commit. */
  committed = 0;

  enter(ticket: number): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((go) => {
      const at = this.waiting.findIndex((entry) => entry.ticket > ticket);
      this.waiting.splice(at === -1 ? this.waiting.length : at, 0, { ticket, go });
    });
  }

  leave(committed: number): void {
    this.committed = Math.max(this.committed, committed);
    const next = this.waiting.shift();
    if (next) next.go();
    else this.busy = false;
  }

  get idle() {
    return !this.busy;
  }
}

const lines = new WeakMap<Db, Map<string, Line>>();

function lineOf(db: Db, owner: string): Line {
  const owners = lines.get(db) ?? new Map<string, Line>();
  lines.set(db, owners);
  const line = owners.get(owner) ?? new Line();
  owners.set(owner, line);
  return line;
}

function leaveLine(db: Db, owner: string, line: Line, committed: number): void {
  line.leave(committed);
  if (line.idle) lines.get(db)?.delete(owner);
}

/**
 * Commits a change: `items` (the write itself) with its event, the event sequence and the idempotency record,
 * in one transaction. Returns null when it committed, or which of `items` failed their condition (the caller
 * says what that means). A change overtaken by a later ticket takes a new one and tries again (its own
 * conditions are then evaluated again too); a request whose key another request took meanwhile answers that
 * request's outcome (or 422, or 409 if it cannot be read).
 */
export async function commitChange<Result>(
  db: Db,
  change: Change<Result>,
  items: TransactItems,
  event: ChangeEvent,
  result: Result,
): Promise<FailedConditions | null> {
  const { owner, idempotency } = change;
  for (let attempt = 1; ; attempt++) {
    const line = lineOf(db, owner);
    await line.enter(change.ticket);
    let committed = 0;
    let failed: FailedConditions | null | undefined;
    try {
      // A later ticket of this process committed already: this one can only fail, so it is not sent.
      if (change.ticket > line.committed) {
        const now = new Date();
        const extra = eventItems(db, change, event, now);
        if (idempotency) extra.push(recordItem(db, owner, idempotency, result, now));
        failed = await transactWrite(db, [...items, ...extra]);
        if (!failed) committed = change.ticket;
      }
    } finally {
      leaveLine(db, owner, line, committed);
    }
    if (failed === null) return null;
    if (failed) {
      const [sequenceAt, recordAt] = [items.length, items.length + 2];
      if (idempotency && failed[recordAt]) {
        const record = live(await readItem(db, idempotencyKey(owner, idempotency.key)));
        if (record) replay(record, idempotency as IdempotentRequest<unknown>);
        throw new ConflictError();
      }
      // Its own conditions are facts about the state the transaction met, overtaken or not: the caller's.
      const own = failed.slice(0, items.length);
      if (own.some(Boolean)) return own;
      if (!failed[sequenceAt]) throw new Error(`Event ${change.ticket} of ${owner} exists beyond its sequence`);
    }
    // Overtaken: a later ticket committed first, and nothing else failed. Again, with a new ticket.
    if (attempt >= MAX_OVERTAKEN) throw new ServiceUnavailableError();
    change.ticket = await takeTicket(db, owner);
  }
}
