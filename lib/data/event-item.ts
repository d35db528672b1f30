/**
 * An event item as the table stores it, and the feed's event made from it: shared by the feed's reader
 * (`events.ts`) and the event bus's publisher (`lib/events-bus.ts`). Pure: no SDK client.
 */
import type { EventType, FeedEvent } from './changes.ts';
import { padId } from './keys.ts';

/** An event item: `data` is the resource's JSON (`changes.ts`). */
export type EventRow = { eventId: number; type: EventType; createdAt: string; data: string };

export const presentEvent = (row: EventRow): FeedEvent => ({
  id: padId(row.eventId),
  type: row.type,
  created_at: row.createdAt,
  data: JSON.parse(row.data),
});
