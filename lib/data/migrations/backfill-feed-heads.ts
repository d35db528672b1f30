/**
 * One-off migrations, run by an operator (docs/deployment.md) or by `npm start`: the only code that may Scan the
 * table. Safe to run twice and while the API serves.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { tableDefinition } from '#lib/data/table.ts';
import { eventSequenceKey, feedChangeShard, feedChangeSortKey, partitionOwner } from '../keys.ts';

/**
 * Puts the feed heads written before the feed-change index existed into it, at their last change
 * (`committedAt`, else 0): one Scan (off every request path) and, for each head without the keys, an update of
 * the keys alone on the condition that it is still without them (a change since gave it newer ones). Not a
 * change of the feed: no event. The local stack runs it at start, before its follower queries the index.
 */
export async function backfillFeedHeads(db: Db): Promise<{ scanned: number; added: number }> {
  const { partitionKey, sortKey } = tableDefinition.feedChangeIndex;
  const names = { '#sk': 'sk', '#changePk': partitionKey };
  let scanned = 0;
  let added = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new ScanCommand({
        TableName: db.tableName,
        FilterExpression: '#sk = :sk AND attribute_not_exists(#changePk)',
        ProjectionExpression: 'pk, committedAt',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':sk': eventSequenceKey('').sk },
        ExclusiveStartKey: start,
      }),
    );
    scanned += page.ScannedCount ?? 0;
    for (const item of page.Items ?? []) {
      const owner = partitionOwner(String(item.pk));
      if (owner === null) continue;
      const committedAt = typeof item.committedAt === 'number' ? item.committedAt : 0;
      try {
        await db.client.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: eventSequenceKey(owner),
            UpdateExpression: 'SET #changePk = :changePk, #changeSk = :changeSk',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#changePk)',
            ExpressionAttributeNames: { '#changePk': partitionKey, '#changeSk': sortKey },
            ExpressionAttributeValues: {
              ':changePk': feedChangeShard(owner),
              ':changeSk': feedChangeSortKey(committedAt, owner),
            },
          }),
        );
        added++;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { scanned, added };
}
