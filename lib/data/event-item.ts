/**
 * The change feed's facts and its event items as the table stores them, read into records: shared by the
 * feed's reader (`events.ts`), the writer (`changes.ts`) and the bus publisher (`lib/feed/bus.ts`).
 * Pure: no SDK client.
 */

import type { EventType, Kind } from '#lib/kinds.ts';
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

/** What an event says about its resource: its record, or (older events) the JSON the API answered. */
export type EventPayload = { record: ResourceRecord } | { answered: unknown };

/** An event as the data layer returns it. */
export type EventRecord = { id: number; type: EventType; kind: Kind; createdAt: string; payload: EventPayload };

export const kindOfEvent = (type: EventType): Kind => type.slice(0, type.indexOf('.')) as Kind;

export function eventRecord(row: EventRow): EventRecord {
  const kind = kindOfEvent(row.type);
  return {
    id: row.eventId,
    type: row.type,
    kind,
    createdAt: row.createdAt,
    payload: row.resource ? { record: recordOf(kind, row.resource) } : { answered: JSON.parse(row.data ?? 'null') },
  };
}

/** Whether DynamoDB's TTL may delete the item already: readers treat it as gone (TTL deletes lag by days). */
export const expired = (row: { ttl?: unknown }, nowMs: number) =>
  typeof row.ttl === 'number' && row.ttl * 1000 <= nowMs;
