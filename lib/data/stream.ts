/**
 * The table's DynamoDB stream, read: which records are new events of an owner's feed, as event records. Only
 * the stream's JSON: no client.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type EventRecord, type EventRow, eventRecord } from './event-item.ts';
import { EVENT_PREFIX, partitionOwner } from './keys.ts';

/** A DynamoDB stream record as EventBridge Pipes passes it. */
export type StreamRecord = {
  eventName?: string;
  dynamodb?: { Keys?: Record<string, AttributeValue>; NewImage?: Record<string, AttributeValue> };
};

/** The new event a stream record carries, with its owner; null for any other record. */
export function newEventOf(record: StreamRecord): { owner: string; event: EventRecord } | null {
  const image = record.dynamodb?.NewImage;
  if (record.eventName !== 'INSERT' || !image) return null;
  const item = unmarshall(image) as Record<string, unknown>;
  const owner = partitionOwner(String(item.pk ?? ''));
  if (!String(item.sk ?? '').startsWith(EVENT_PREFIX) || owner === null) return null;
  return { owner, event: eventRecord(item as EventRow) };
}
