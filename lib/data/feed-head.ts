/**
 * The owner's feed head: the item `SEQUENCE#event` that every change moves in its own transaction.
 *
 * - `head`: the id of the last event committed. Ids are gapless from `gaplessFrom` on: a change requires the
 *   head to be the value it read and sets it to one more, putting that event in the same transaction.
 * - `epoch`: which life of the feed a cursor belongs to. A new feed takes the time of its first change; a
 *   restored or re-created table gets a new one (`npm run feed:epoch`), so older cursors are refused.
 * - `committedAt`: when the last change committed (ms): a reader meeting a missing id tells "not visible yet"
 *   (a change committing right now) from "gone" with it.
 *
 * Feeds from before gapless ids (tickets) have only `last`; their events keep their gaps (ids below
 * `gaplessFrom`). The first change of such a feed moves it over and sets `last` to the highest id there is,
 * so a writer still running the ticket code fails its condition (`last < ticket`) instead of leaving a hole.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { tableDefinition } from '#lib/data/table.ts';
import {
  eventSequenceKey,
  feedChangeOwner,
  feedChangeShard,
  feedChangeShards,
  feedChangeSortKey,
  MAX_ID,
} from './keys.ts';
import { paginateQuery } from './query.ts';
import type { TransactPart } from './transaction.ts';

/** The epoch of a feed from before epochs existed (and of a bare event id used as a cursor). */
export const LEGACY_EPOCH = 1;

export type FeedHead = {
  /** The last event id committed (0: none). */
  head: number;
  /** The first id of the gapless range; ids below it may have gaps (a feed from before gapless ids). */
  gaplessFrom: number;
  /** 0 while the feed has no event yet: it takes one with its first change. */
  epoch: number;
  /** When the last change committed (ms since 1970); absent before gapless ids. */
  committedAt?: number;
  /** How the item stands: none yet, from before gapless ids (with its `last`), or gapless. */
  shape: { is: 'none' } | { is: 'legacy'; last: number | undefined } | { is: 'gapless' };
};

export async function readFeedHead(db: Db, owner: string): Promise<FeedHead> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: eventSequenceKey(owner), ConsistentRead: true }),
  );
  if (!Item) return { head: 0, gaplessFrom: 1, epoch: 0, shape: { is: 'none' } };
  const number = (name: string) => (typeof Item[name] === 'number' ? (Item[name] as number) : undefined);
  const head = number('head');
  if (head === undefined) {
    const last = number('last');
    const top = last ?? 0;
    return { head: top, gaplessFrom: top + 1, epoch: number('epoch') ?? LEGACY_EPOCH, shape: { is: 'legacy', last } };
  }
  return {
    head,
    gaplessFrom: number('gaplessFrom') ?? 1,
    epoch: number('epoch') ?? LEGACY_EPOCH,
    committedAt: number('committedAt'),
    shape: { is: 'gapless' },
  };
}

const names = {
  '#changePk': tableDefinition.feedChangeIndex.partitionKey,
  '#changeSk': tableDefinition.feedChangeIndex.sortKey,
  '#head': 'head',
  '#last': 'last',
  '#gaplessFrom': 'gaplessFrom',
  '#epoch': 'epoch',
  '#committedAt': 'committedAt',
};

/**
 * The transaction's part that moves the head from the value read to `head + 1`, and only from it; and its keys
 * in the feed-change index (`tableDefinition.feedChangeIndex`): when the feed last changed.
 */
export function advanceHead(db: Db, owner: string, read: FeedHead, nowMs: number): TransactPart {
  const next = read.head + 1;
  const base = { TableName: db.tableName, Key: eventSequenceKey(owner) };
  const change = { ':changePk': feedChangeShard(owner), ':changeSk': feedChangeSortKey(nowMs, owner) };
  if (read.shape.is === 'gapless') {
    return {
      Update: {
        ...base,
        UpdateExpression: 'SET #head = :next, #committedAt = :now, #changePk = :changePk, #changeSk = :changeSk',
        ConditionExpression: '#head = :head',
        ExpressionAttributeNames: {
          '#head': names['#head'],
          '#committedAt': names['#committedAt'],
          '#changePk': names['#changePk'],
          '#changeSk': names['#changeSk'],
        },
        ExpressionAttributeValues: { ':next': next, ':now': nowMs, ':head': read.head, ...change },
      },
    };
  }
  // The first gapless change: from no item, or from a ticket feed still at the `last` read.
  const { last } = read.shape.is === 'legacy' ? read.shape : { last: undefined };
  const condition =
    read.shape.is === 'none'
      ? 'attribute_not_exists(#head) AND attribute_not_exists(#last)'
      : `attribute_not_exists(#head) AND ${last === undefined ? 'attribute_not_exists(#last)' : '#last = :last'}`;
  return {
    Update: {
      ...base,
      UpdateExpression:
        'SET #head = :next, #gaplessFrom = :next, #last = :sealed, #epoch = if_not_exists(#epoch, :epoch), #committedAt = :now, #changePk = :changePk, #changeSk = :changeSk',
      ConditionExpression: condition,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':next': next,
        ':sealed': MAX_ID,
        // A new feed's epoch is the time it began; a ticket feed's cursors (bare ids) are of the legacy epoch.
        ':epoch': read.shape.is === 'none' ? nowMs : LEGACY_EPOCH,
        ':now': nowMs,
        ...change,
        ...(last === undefined ? {} : { ':last': last }),
      },
    },
  };
}

/** An owner whose feed changed, and when (the head's `committedAt`, as the feed-change index keeps it). */
export type FeedChange = { owner: string; changedAt: number };

/**
 * The owners whose feed changed after `afterMs` (every owner with a feed, without it), from the feed-change
 * index: one Query per shard, in parallel, each reading only the heads changed since. The index is eventually
 * consistent on AWS: a reader asks again from a margin before its last read.
 */
export async function feedChangesSince(db: Db, afterMs?: number): Promise<FeedChange[]> {
  const { indexName, partitionKey, sortKey } = tableDefinition.feedChangeIndex;
  const shards = await Promise.all(
    feedChangeShards().map(async (shard) => {
      const found: FeedChange[] = [];
      const pages = paginateQuery(db, {
        TableName: db.tableName,
        IndexName: indexName,
        KeyConditionExpression:
          afterMs === undefined ? '#changePk = :shard' : '#changePk = :shard AND #changeSk > :after',
        ExpressionAttributeNames: {
          '#changePk': partitionKey,
          ...(afterMs === undefined ? {} : { '#changeSk': sortKey }),
        },
        ExpressionAttributeValues: {
          ':shard': shard,
          // Past every owner of that millisecond: the next one's first key.
          ...(afterMs === undefined ? {} : { ':after': `${feedChangeSortKey(afterMs, '')}\uffff` }),
        },
      });
      for await (const page of pages) {
        for (const item of page.items) {
          const key = String(item[sortKey]);
          found.push({ owner: feedChangeOwner(key), changedAt: Number(key.slice(0, 15)) });
        }
      }
      return found;
    }),
  );
  return shards.flat();
}
