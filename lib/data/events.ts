/**
 * The owner's change feed, read: events after a position, in id order, by Query on the owner's partition.
 *
 * Ids are gapless from the feed head's `gaplessFrom` on (`changes.ts`), so an id the reader cannot see is
 * either committing right now (DynamoDB makes a transaction's items visible to plain reads one by one), or
 * gone with TTL. The reader never steps over one: it stops the page there, and the next poll continues from
 * the last event delivered. It tells the two apart with the head's `committedAt` (a hole is young only while
 * the last commit is) and with the position's `since` (every event after a position was created after it):
 * a position whose next events may have expired is refused (`FeedCursorGone`), never served a wrong page.
 */
import type { Db } from '#lib/data/dynamodb.ts';
import { log } from '#lib/platform/log.ts';
import { FeedCursorGone } from './errors.ts';
import { EVENT_RETENTION_DAYS, type EventRecord, type EventRow, eventRecord, expired } from './event-item.ts';
import { type FeedHead, readFeedHead } from './feed-head.ts';
import { eventKey, ownerPartition } from './keys.ts';
import { paginateQuery } from './query.ts';

const DAY_MS = 24 * 3600 * 1000;
/** A hole younger than this after the last commit is a change still becoming visible. */
export const HOLE_GRACE_MS = 5_000;
/** Allowance for clocks and a change's own duration when a time bounds the events after a position. */
const SINCE_MARGIN_MS = 60_000;
/** At most this many events are examined per page (a type filter may skip many). */
const MAX_EXAMINED = 1_000;

/**
 * Where a reader stands: its feed's epoch (undefined for a bare event id, valid in any epoch), the last id it
 * has been given (0: from the start), and a time before which no event after it was created (0: unknown).
 */
export type FeedPosition = { epoch: number | undefined; id: number; since: number };

export type EventQuery = {
  after: FeedPosition;
  perPage: number;
  /** Type prefixes an event must start with, each list one requirement (`[['domain.'], ['space.', 'domain.']]`). */
  types: readonly (readonly string[])[];
};

/** A page of events, where the next page starts, and whether more may be read at once. */
export type EventPage = { events: EventRecord[]; next: FeedPosition; more: boolean };

const matches = (types: EventQuery['types'], type: string) =>
  types.every((prefixes) => prefixes.some((prefix) => type.startsWith(prefix)));

/** What a missing id means: still committing (stop here), gone with TTL (refuse the cursor), or a fault. */
function holeAt(owner: string, id: number, head: FeedHead, since: number, now: number): void {
  if (head.committedAt !== undefined && head.committedAt >= now - HOLE_GRACE_MS) return;
  if (since < now - EVENT_RETENTION_DAYS * DAY_MS) throw new FeedCursorGone('expired');
  // A committed transaction's items are all visible within moments: this one never will be.
  log('error', 'Change feed hole', { owner, eventId: id, head: head.head });
}

/**
 * Events after the position, in id order, at most `perPage`: read the head, then the events up to it, stopping
 * at the first missing id of the gapless range. A position from another epoch, or beyond the head (the table
 * was restored or re-created), or whose next events may have expired, is refused with `FeedCursorGone`.
 */
export async function listEvents(db: Db, owner: string, query: EventQuery, now = Date.now()): Promise<EventPage> {
  const head = await readFeedHead(db, owner);
  const { after } = query;
  const foreign = after.epoch !== undefined && after.epoch !== head.epoch;
  if (after.id > 0 && (foreign || after.id > head.head)) throw new FeedCursorGone('epoch');
  const fresh = Math.max(after.since, now - SINCE_MARGIN_MS);
  const at = (id: number, since: number): FeedPosition => ({ epoch: head.epoch, id, since });
  // A requirement no type can meet (a key without a read scope the filter allows): nothing to read, ever.
  if (query.types.some((prefixes) => prefixes.length === 0))
    return { events: [], next: at(head.head, fresh), more: false };
  if (after.id === head.head) return { events: [], next: at(after.id, fresh), more: false };

  const events: EventRecord[] = [];
  let position = { id: after.id, since: after.since };
  // From the start, events gone with TTL are simply not there any more: the feed begins at the oldest kept.
  let fromStart = after.id === 0;
  let expected = after.id + 1;
  let examined = 0;
  const input = {
    TableName: db.tableName,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
    ExpressionAttributeValues: {
      ':pk': ownerPartition(owner),
      ':from': eventKey(owner, expected).sk,
      ':to': eventKey(owner, head.head).sk,
    },
    ConsistentRead: true,
  };
  /** Whether the ids from `expected` up to `id` (excluded) hold a hole the reader must stop at. */
  const stopsBefore = (id: number) => {
    const firstGapless = Math.max(expected, head.gaplessFrom);
    if (id <= firstGapless) return false;
    if (fromStart && !(head.committedAt !== undefined && head.committedAt >= now - HOLE_GRACE_MS)) return false;
    holeAt(owner, firstGapless, head, position.since, now);
    return true;
  };
  let stopped = false;
  let rows = 0;
  const pageSize = () => query.perPage - events.length;
  reading: for await (const page of paginateQuery(db, input, { limit: MAX_EXAMINED, pageSize })) {
    rows += page.items.length;
    // Read as much as a page may: what lies beyond is for the next page, not a hole.
    if (rows >= MAX_EXAMINED) stopped = true;
    for (const row of page.items as EventRow[]) {
      // An expired event is gone, whether TTL deleted it yet or not: the ids after it will find the hole.
      if (expired(row, now)) continue;
      if (stopsBefore(row.eventId)) {
        stopped = true;
        break reading;
      }
      expected = row.eventId + 1;
      fromStart = false;
      examined++;
      const record = eventRecord(row);
      if (matches(query.types, record.type)) events.push(record);
      position = { id: record.id, since: Date.parse(record.createdAt) - SINCE_MARGIN_MS };
      if (events.length === query.perPage || examined === MAX_EXAMINED) {
        stopped = true;
        break reading;
      }
    }
  }
  // Ids up to the head that no row answered: committing, gone, or gaps from before gapless ids.
  if (!stopped && expected <= head.head && !stopsBefore(head.head + 1)) position = { id: head.head, since: fresh };
  if (!stopped && expected > head.head) position = { id: head.head, since: Math.max(position.since, fresh) };
  return { events, next: at(position.id, position.since), more: position.id < head.head };
}
