/**
 * The change feed's events as they reach the EventBridge event bus (on AWS): DynamoDB Streams → EventBridge
 * Pipes (filtered to new event items) → this shape, built by the pipe's enrichment (`functions/events/publish`)
 * → the bus. The schema is docs/events/event.v1.schema.json. No SDK client: only the stream's JSON.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { FeedEvent } from '#lib/data/changes.ts';
import { type EventRow, presentEvent } from '#lib/data/event-item.ts';
import { EVENT_PREFIX, partitionOwner } from '#lib/data/keys.ts';

export const EVENT_SCHEMA_VERSION = 1;
/** The bus events' `source` and `detail-type`: rules match on `detail.type` (`{"prefix": "domain."}`). */
export const EVENT_SOURCE = 'domains-spaces';
export const EVENT_DETAIL_TYPE = 'Change';

/** The feed's event, with its owner and the schema version. */
export type BusEvent = FeedEvent & { schema_version: number; owner: string };

/** A DynamoDB stream record as EventBridge Pipes passes it. */
export type StreamRecord = {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, AttributeValue>; NewImage?: Record<string, AttributeValue> };
};

/** The bus event of a stream record, or null for a record that is not a new event (the pipe filters those). */
export function busEvent(record: StreamRecord): BusEvent | null {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return null;
  const item = unmarshall(image) as Record<string, unknown>;
  const owner = partitionOwner(String(item.pk ?? ''));
  if (!String(item.sk ?? '').startsWith(EVENT_PREFIX) || owner === null) return null;
  return { schema_version: EVENT_SCHEMA_VERSION, owner, ...presentEvent(item as EventRow) };
}
