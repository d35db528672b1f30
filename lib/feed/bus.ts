/**
 * The change feed's events as they reach the EventBridge event bus (on AWS): DynamoDB Streams → EventBridge
 * Pipes (filtered to new event items) → this shape, built by the pipe's enrichment (`functions/events/publish.ts`)
 * → the bus. The schema is docs/events/event.v1.schema.json.
 */
import { newEventOf, type StreamRecord } from '#lib/data/stream.ts';
import { presentNewEvent } from '#lib/feed/present.ts';
import type { EdgeHost } from '#lib/kind-module.ts';

export const EVENT_SCHEMA_VERSION = 1;
/** The bus events' `source` and `detail-type`: rules match on `detail.type` (`{"prefix": "domain."}`). */
export const EVENT_SOURCE = 'domains-spaces';
export const EVENT_DETAIL_TYPE = 'Change';

/** The feed's event, with its owner and the schema version. */
export type BusEvent = ReturnType<typeof presentNewEvent> & { schema_version: number; owner: string };

/** The bus event of a stream record, or null for a record that is not a new event (the pipe filters those). */
export function busEvent(record: StreamRecord, edge: EdgeHost): BusEvent | null {
  const found = newEventOf(record);
  if (!found) return null;
  return { schema_version: EVENT_SCHEMA_VERSION, owner: found.owner, ...presentNewEvent(found.event, edge) };
}
