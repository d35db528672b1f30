/**
 * The change feed's facts and its event items as the table stores them, read into records: shared by the
 * feed's reader (`events.ts`), the writer (`changes.ts`) and the bus publisher (`lib/feed/bus.ts`).
 * Pure: no SDK client.
 */

import { ACCOUNT, type EventKind, type EventType, type Kind } from '#lib/kinds.ts';
import { type ResourceRecord, recordOf } from './item.ts';

/** Events are kept this long (DynamoDB TTL); a cursor whose next events may be gone is answered 410. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * An event item. Events written since the feed became gapless carry the resource's record (`resource`),
 * turned into the API's shape by whoever serves it (those written before records had storage attributes
 * in it: `recordOf` drops them); events written before carry the resource as the API answered it then, as
 * JSON text (`data`), and are served as they are.
 */
export type EventRow = {
  eventId: number;
  type: EventType;
  createdAt: string;
  data?: string;
  resource?: Record<string, unknown>;
  ttl?: number;
};

/** A change of the owner's account (`account.plan_changed`): its plan after the change, and before. */
export type AccountChange = { plan: string; previousPlan: string };

/**
 * What an event says: about its resource, its record, or (older events) the JSON the API answered; about the
 * account, the change (stored as `resource` too: the one attribute every event carries its subject in).
 */
export type EventPayload = { record: ResourceRecord } | { answered: unknown } | { account: AccountChange };

/** An event as the data layer returns it. */
export type EventRecord = { id: number; type: EventType; kind: EventKind; createdAt: string; payload: EventPayload };

export const kindOfEvent = (type: EventType): EventKind => type.slice(0, type.indexOf('.')) as EventKind;

const accountChangeOf = (stored: Record<string, unknown>): AccountChange => ({
  plan: String(stored.plan),
  previousPlan: String(stored.previousPlan),
});

function payloadOf(kind: EventKind, row: EventRow): EventPayload {
  if (kind === ACCOUNT) return { account: accountChangeOf(row.resource ?? {}) };
  return row.resource ? { record: recordOf(kind as Kind, row.resource) } : { answered: JSON.parse(row.data ?? 'null') };
}

export function eventRecord(row: EventRow): EventRecord {
  const kind = kindOfEvent(row.type);
  return { id: row.eventId, type: row.type, kind, createdAt: row.createdAt, payload: payloadOf(kind, row) };
}

/** Whether DynamoDB's TTL may delete the item already: readers treat it as gone (TTL deletes lag by days). */
export const expired = (row: { ttl?: unknown }, nowMs: number) =>
  typeof row.ttl === 'number' && row.ttl * 1000 <= nowMs;
