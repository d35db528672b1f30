/**
 * The runbook step after a point-in-time restore or a re-created table (docs/events.md): every owner's feed
 * takes a new epoch, so a cursor handed out before (which may point past what the restored feed holds, or
 * at ids the restored feed will give to other changes) is refused with 410 instead of served a wrong page.
 * An operations tool, off the request path: it may Scan.
 */
import { GetCommand, paginateScan, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { eventSequenceKey } from '../keys.ts';

/** Gives one owner's feed a new epoch (later than its current one); returns it, or null if it has no feed. */
export async function setFeedEpoch(db: Db, owner: string, now = Date.now()): Promise<number | null> {
  const key = eventSequenceKey(owner);
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  if (!Item) return null;
  const epoch = Math.max(now, (typeof Item.epoch === 'number' ? Item.epoch : 1) + 1);
  await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: key,
      UpdateExpression: 'SET #epoch = :epoch',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#epoch': 'epoch' },
      ExpressionAttributeValues: { ':epoch': epoch },
    }),
  );
  return epoch;
}

/** Gives every owner's feed a new epoch: returns how many feeds it moved. */
export async function setEveryFeedEpoch(db: Db, now = Date.now()): Promise<number> {
  const { sk } = eventSequenceKey('');
  let moved = 0;
  const pages = paginateScan(
    { client: db.client },
    {
      TableName: db.tableName,
      FilterExpression: '#sk = :sk',
      ProjectionExpression: '#pk',
      ExpressionAttributeNames: { '#sk': 'sk', '#pk': 'pk' },
      ExpressionAttributeValues: { ':sk': sk },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const owner = String(item.pk).slice(eventSequenceKey('').pk.length);
      if ((await setFeedEpoch(db, owner, now)) !== null) moved++;
    }
  }
  return moved;
}
