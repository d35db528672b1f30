/**
 * A webhook's delivery attempts: one item per attempt in the owner's partition (`DELIVERY#<webhook>#<time>…`),
 * kept 30 days like the events they carried, read newest first by Query. Written after each attempt; not a
 * change of the webhook (no version, no event).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { EVENT_RETENTION_DAYS } from '#lib/data/event-item.ts';
import { deliveryKey, deliveryPrefix, ownerPartition } from '#lib/data/keys.ts';
import { paginateQuery } from '#lib/data/query.ts';
import { tableDefinition } from '#lib/data/table.ts';
import type { DeliveryFailure } from '#lib/webhooks/rules/failures.ts';

export type DeliveryRecord = {
  webhookId: number;
  /** The event's id as the feed shows it (a test delivery's: `test_…`). */
  eventId: string;
  eventType: string;
  /** The `webhook-id` every attempt of this event to this webhook carries. */
  messageId: string;
  /** From 1. */
  attempt: number;
  statusCode?: number;
  /** What went wrong when no answer came (an answer outside 2xx has `statusCode` instead). */
  error?: DeliveryFailure;
  durationMs: number;
  createdAt: string;
  succeeded: boolean;
  /** The start of the answer's body (at most 256 characters). */
  responseExcerpt?: string;
};

const SECOND = 1000;

export async function recordDelivery(db: Db, owner: string, delivery: DeliveryRecord): Promise<void> {
  const key = deliveryKey(owner, delivery.webhookId, delivery.createdAt, delivery.messageId, delivery.attempt);
  await db.client.send(
    new PutCommand({
      TableName: db.tableName,
      Item: {
        ...key,
        kind: 'delivery',
        ...delivery,
        [tableDefinition.timeToLiveAttribute]:
          Math.floor(Date.parse(delivery.createdAt) / SECOND) + EVENT_RETENTION_DAYS * 24 * 3600,
      },
    }),
  );
}

/** A page of attempts, newest first, and where the next page starts (the last one's sort key), if any. */
export type DeliveryPage = { deliveries: DeliveryRecord[]; next?: string };

/** Up to `perPage` of the webhook's attempts, newest first, after `after` (a page's `next`). */
export async function listDeliveries(
  db: Db,
  owner: string,
  webhookId: number,
  { perPage, after }: { perPage: number; after?: string },
): Promise<DeliveryPage> {
  const prefix = deliveryPrefix(webhookId);
  const pk = ownerPartition(owner);
  // `after` came from a page of this webhook's: anything else starts nowhere (an empty page).
  if (after !== undefined && !after.startsWith(prefix)) return { deliveries: [] };
  const pages = paginateQuery(
    db,
    {
      TableName: db.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    { start: after === undefined ? undefined : { pk, sk: after }, limit: perPage + 1 },
  );
  const items: Record<string, unknown>[] = [];
  for await (const page of pages) items.push(...page.items);
  const shown = items.slice(0, perPage);
  const last = shown.at(-1);
  return {
    deliveries: shown.map(deliveryOf),
    ...(items.length > perPage && last ? { next: String(last.sk) } : {}),
  };
}

function deliveryOf(item: Record<string, unknown>): DeliveryRecord {
  const { pk: _pk, sk: _sk, kind: _kind, ttl: _ttl, ...delivery } = item;
  return delivery as DeliveryRecord;
}
