/**
 * Puts the feed heads written before the feed-change index existed into it, at their last change
 * (`committedAt`, else 0): for each head without the keys, an update of the keys alone on the condition that it
 * is still without them (a change since gave it newer ones). Not a change of the feed: no event. The local
 * stack runs it at start, before its follower queries the index.
 */
import type { Db } from '#lib/data/dynamodb.ts';
import { tableDefinition } from '#lib/data/table.ts';
import { eventSequenceKey, feedChangeShard, feedChangeSortKey, partitionOwner } from '../keys.ts';
import { backfill } from './backfill.ts';

export function backfillFeedHeads(db: Db): Promise<{ scanned: number; added: number }> {
  const { partitionKey, sortKey } = tableDefinition.feedChangeIndex;
  return backfill(db, {
    scan: {
      filter: '#sk = :sk AND attribute_not_exists(#changePk)',
      projection: 'pk, committedAt',
      names: { '#sk': 'sk', '#changePk': partitionKey },
      values: { ':sk': eventSequenceKey('').sk },
    },
    update(item) {
      const owner = partitionOwner(String(item.pk));
      if (owner === null) return null;
      const committedAt = typeof item.committedAt === 'number' ? item.committedAt : 0;
      return {
        Key: eventSequenceKey(owner),
        UpdateExpression: 'SET #changePk = :changePk, #changeSk = :changeSk',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#changePk)',
        ExpressionAttributeNames: { '#changePk': partitionKey, '#changeSk': sortKey },
        ExpressionAttributeValues: {
          ':changePk': feedChangeShard(owner),
          ':changeSk': feedChangeSortKey(committedAt, owner),
        },
      };
    },
  });
}
