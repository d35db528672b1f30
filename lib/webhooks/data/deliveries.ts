/**
 * A webhook's delivery attempts: one item per attempt in the owner's partition (`DELIVERY#<webhook>#<time>…`),
 * kept 30 days like the events they carried, read newest first by Query. Written after each attempt; not a
 * change of the webhook (no version, no event).
 */
import { BatchGetCommand, DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { EVENT_RETENTION_DAYS } from '#lib/data/event-item.ts';
import {
  deliveryKey,
  deliveryPrefix,
  ownerPartition,
  PENDING_DELIVERIES_SHARD,
  partitionOwner,
  pendingDeliveryKey,
} from '#lib/data/keys.ts';
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
  /** An attempt not made yet, due at `createdAt` (the local stack's pending attempts; none on AWS). */
  pending?: true;
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
  const { pk: _pk, sk: _sk, kind: _kind, ttl: _ttl, event: _event, ...delivery } = item;
  const { partitionKey, sortKey } = tableDefinition.feedChangeIndex;
  delete delivery[partitionKey];
  delete delivery[sortKey];
  return delivery as DeliveryRecord;
}

// ---- The local stack's pending attempts ----------------------------------------------------------------

/** An attempt to be made: the event (as delivered) to the webhook, which attempt, and when it is due. */
export type PendingDelivery = {
  owner: string;
  webhookId: number;
  event: { id: string; type: string; created_at: string; data: unknown };
  messageId: string;
  attempt: number;
  dueAt: string;
};

/**
 * Keeps the webhook's next attempt of an event (the local stack's queue: what SQS holds on AWS), one item per
 * event and webhook, listed with the webhook's attempts (`pending`) and in the feed-change index's partition of
 * pending attempts, so a restart finds them all by Query. `onlyNew`: written only if none is there yet (a
 * fan-out repeated after a restart leaves a retry's count alone); whether it was written.
 */
export async function savePendingDelivery(
  db: Db,
  pending: PendingDelivery,
  { onlyNew = false } = {},
): Promise<boolean> {
  const key = pendingDeliveryKey(pending.owner, pending.webhookId, pending.messageId);
  const { partitionKey, sortKey } = tableDefinition.feedChangeIndex;
  const record: DeliveryRecord = {
    webhookId: pending.webhookId,
    eventId: pending.event.id,
    eventType: pending.event.type,
    messageId: pending.messageId,
    attempt: pending.attempt,
    durationMs: 0,
    createdAt: pending.dueAt,
    succeeded: false,
    responseExcerpt: '',
    pending: true,
  };
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: {
          ...key,
          kind: 'delivery',
          ...record,
          event: pending.event,
          [partitionKey]: PENDING_DELIVERIES_SHARD,
          [sortKey]: `${key.pk}#${key.sk}`,
          [tableDefinition.timeToLiveAttribute]:
            Math.floor(Date.parse(pending.dueAt) / SECOND) + EVENT_RETENTION_DAYS * 24 * 3600,
        },
        ...(onlyNew ? { ConditionExpression: 'attribute_not_exists(pk)' } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (!(onlyNew && (error as Error).name === 'ConditionalCheckFailedException')) throw error;
    return false;
  }
}

/** The attempt is made (delivered, given up or dropped): no longer pending. */
export async function removePendingDelivery(db: Db, owner: string, webhookId: number, messageId: string) {
  await db.client.send(
    new DeleteCommand({ TableName: db.tableName, Key: pendingDeliveryKey(owner, webhookId, messageId) }),
  );
}

/** Every pending attempt of every owner: a Query of their index partition, then the items (BatchGetItem). */
export async function pendingDeliveries(db: Db): Promise<PendingDelivery[]> {
  const { indexName, partitionKey } = tableDefinition.feedChangeIndex;
  const keys: { pk: string; sk: string }[] = [];
  const pages = paginateQuery(db, {
    TableName: db.tableName,
    IndexName: indexName,
    KeyConditionExpression: '#shard = :shard',
    ExpressionAttributeNames: { '#shard': partitionKey },
    ExpressionAttributeValues: { ':shard': PENDING_DELIVERIES_SHARD },
  });
  for await (const page of pages)
    for (const item of page.items) keys.push({ pk: String(item.pk), sk: String(item.sk) });
  const found: PendingDelivery[] = [];
  for (let start = 0; start < keys.length; start += 100) {
    let request: Record<string, { Keys: { pk: string; sk: string }[]; ConsistentRead: boolean }> | undefined = {
      [db.tableName]: { Keys: keys.slice(start, start + 100), ConsistentRead: true },
    };
    while (request && Object.keys(request).length > 0) {
      const answer = await db.client.send(new BatchGetCommand({ RequestItems: request }));
      for (const item of answer.Responses?.[db.tableName] ?? []) {
        const owner = partitionOwner(String(item.pk));
        if (owner === null || item.pending !== true) continue;
        found.push({
          owner,
          webhookId: Number(item.webhookId),
          event: item.event as PendingDelivery['event'],
          messageId: String(item.messageId),
          attempt: Number(item.attempt),
          dueAt: String(item.createdAt),
        });
      }
      request = answer.UnprocessedKeys as typeof request;
    }
  }
  return found;
}
