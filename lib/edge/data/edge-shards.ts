/**
 * What the edge sync keeps in the table about its shards (`lib/edge/sync.ts`, docs/deployment.md "The edge"):
 * - each shard's count of hosts placed on it (`EDGESHARD`, one item per shard), moved up by one in the same
 *   transaction that records a domain's shard on its item (`edgeShard`), on the condition that the shard has
 *   room and the domain exists and has no shard yet, and down by one in the transaction that deletes a placed
 *   domain (`shardRelease`), never below 0: the count is the shard's live placed domains, and a host is placed
 *   once. Every whole-item write of a domain is conditional on its `edgeShard` as read (`shardAsRead`), so a
 *   placement landing between a delete's (or an update's) read and its write makes it read again;
 * - each shard's writes waiting for its one writer (`EDGEPENDING#<shard>`, one item per host: the latest state
 *   wins, so events for one host coalesce), and the lease that makes one sync at a time that writer
 *   (`EDGELEASE`, one item per shard, taken and given back with conditional writes, lapsing if its holder dies).
 * Queries by partition only: no Scan.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Condition } from '#lib/data/condition.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { itemKey } from '#lib/data/keys.ts';
import { type Parts, transact } from '#lib/data/transaction.ts';

const COUNTS = 'EDGESHARD';
const countKey = (shard: number) => ({ pk: COUNTS, sk: `SHARD#${shard}` });
const pendingPartition = (shard: number) => `EDGEPENDING#${shard}`;
const leaseKey = (shard: number) => ({ pk: 'EDGELEASE', sk: `SHARD#${shard}` });

/** Hosts placed on each shard so far (0 for a shard nothing was placed on), by shard number. */
export async function shardCounts(db: Db, shards: number): Promise<number[]> {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: db.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': COUNTS },
      ConsistentRead: true,
    }),
  );
  const counts = Array.from({ length: shards }, () => 0);
  for (const item of Items) {
    const shard = Number(String(item.sk).slice('SHARD#'.length));
    if (shard < shards) counts[shard] = Number(item.hosts ?? 0);
  }
  return counts;
}

/** What placing a domain came to: its shard (placed now, or before by another sync), or no room, or gone. */
export type Placement = { shard: number } | { full: true } | { gone: true };

/**
 * Places the domain on the least full shard that has room (`capacity` hosts), once: its count and the domain's
 * `edgeShard` change in one transaction, on the conditions that the count is below capacity (absent with
 * `force`, for a domain already served on that shard) and that the domain exists and has no shard yet. When
 * another sync placed it first, that shard is the answer.
 */
export async function placeDomain(
  db: Db,
  domain: { owner: string; id: number },
  options: { shards: number; capacity: number; force?: number },
): Promise<Placement> {
  const item = itemKey(domain.owner, 'domain', domain.id);
  const counts = await shardCounts(db, options.shards);
  const candidates =
    options.force !== undefined
      ? [options.force]
      : counts
          .map((count, shard) => ({ count, shard }))
          .filter(({ count }) => count < options.capacity)
          .sort((a, b) => a.count - b.count || a.shard - b.shard)
          .map(({ shard }) => shard);
  for (let at = 0; at < candidates.length; ) {
    const shard = candidates[at] as number;
    const result = await transact(db, {
      count: {
        Update: {
          TableName: db.tableName,
          Key: countKey(shard),
          UpdateExpression: 'ADD hosts :one',
          ...(options.force !== undefined
            ? { ExpressionAttributeValues: { ':one': 1 } }
            : {
                ConditionExpression: 'attribute_not_exists(hosts) OR hosts < :capacity',
                ExpressionAttributeValues: { ':one': 1, ':capacity': options.capacity },
              }),
        },
      },
      domain: {
        Update: {
          TableName: db.tableName,
          Key: item,
          UpdateExpression: 'SET edgeShard = :shard',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(edgeShard)',
          ExpressionAttributeValues: { ':shard': shard },
        },
      },
    });
    if (result.outcome === 'committed') return { shard };
    if (result.outcome === 'conflict') continue; // in flight with another placement: the same shard again
    if (result.failed.has('domain')) {
      const { Item } = await db.client.send(
        new GetCommand({ TableName: db.tableName, Key: item, ConsistentRead: true }),
      );
      if (!Item) return { gone: true };
      if (typeof Item.edgeShard === 'number') return { shard: Item.edgeShard };
    }
    at++; // this shard filled up meanwhile: the next one
  }
  return { full: true };
}

/**
 * A domain's `edgeShard` as read, as a condition for writing its whole item: the placement sets it without a
 * change (no new version), so a write planned from an earlier read would otherwise drop it or miss it.
 */
export const shardAsRead = (edgeShard: number | undefined): Condition =>
  edgeShard === undefined
    ? { expression: 'attribute_not_exists(#edgeShard)', names: { '#edgeShard': 'edgeShard' }, values: {} }
    : {
        expression: '#edgeShard = :edgeShard',
        names: { '#edgeShard': 'edgeShard' },
        values: { ':edgeShard': edgeShard },
      };

/**
 * What deleting a domain gives back, in the delete's transaction: a placed domain's shard count goes down by one,
 * on the condition that it is above 0 (part `shardCount`). A count found at 0 (set by hand: counts move with
 * placements) fails that condition; `atFloor` then leaves it out, so the domain is deleted and the count stays 0.
 * Old domains without `edgeShard` give nothing back. The delete happens once (it is conditional on the item), so
 * the count comes down once.
 */
export function shardRelease(
  db: Db,
  edgeShard: number | undefined,
  atFloor: boolean,
): { state: Condition; parts: Parts } {
  const state = shardAsRead(edgeShard);
  if (edgeShard === undefined || atFloor) return { state, parts: {} };
  return {
    state,
    parts: {
      shardCount: {
        Update: {
          TableName: db.tableName,
          Key: countKey(edgeShard),
          UpdateExpression: 'ADD hosts :minusOne',
          ConditionExpression: 'hosts > :zero',
          ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
        },
      },
    },
  };
}

/** A write waiting for its shard's writer: the host's entry (JSON) as read at `t`. */
export type PendingWrite = { host: string; value: string; t: number };

/**
 * Queues the host's entry for its shard's writer, unless a newer one is queued already (it supersedes this):
 * true when this one is queued. (A newer state replaces a settled refusal of an older one.)
 */
export async function queueWrite(db: Db, shard: number, write: PendingWrite): Promise<boolean> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { pk: pendingPartition(shard), sk: write.host, value: write.value, t: write.t },
        ConditionExpression: 'attribute_not_exists(pk) OR t <= :t',
        ExpressionAttributeValues: { ':t': write.t },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Where the host's write of `t` stands, in one read of its queued item: still queued; refused by a full store or
 * skipped as older than the store's entry (the writer's `outcome` on the item, which its sync takes and
 * deletes here); or applied (the item gone) or superseded (a newer `t` queued).
 */
export async function writeState(
  db: Db,
  shard: number,
  host: string,
  t: number,
): Promise<'queued' | 'refused' | 'older' | 'applied'> {
  const key = { pk: pendingPartition(shard), sk: host };
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  if (!Item || Number(Item.t) !== t) return 'applied';
  if (Item.outcome !== 'refused' && Item.outcome !== 'older') return 'queued';
  try {
    await db.client.send(
      new DeleteCommand({
        TableName: db.tableName,
        Key: key,
        ConditionExpression: 't = :t AND attribute_exists(outcome)',
        ExpressionAttributeValues: { ':t': t },
      }),
    );
  } catch (error) {
    // A newer state was queued meanwhile: it stays for the writer.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
  return Item.outcome;
}

const pendingOf = (item: Record<string, unknown>): PendingWrite => ({
  host: String(item.sk),
  value: String(item.value),
  t: Number(item.t),
});

/** Up to `limit` writes the shard's writer has yet to apply (settled refusals waiting for their sync skipped). */
export async function pendingWrites(db: Db, shard: number, limit: number): Promise<PendingWrite[]> {
  const found: PendingWrite[] = [];
  let from: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'attribute_not_exists(outcome)',
        ExpressionAttributeValues: { ':pk': pendingPartition(shard) },
        ConsistentRead: true,
        Limit: limit,
        ...(from ? { ExclusiveStartKey: from } : {}),
      }),
    );
    found.push(...Items.map(pendingOf));
    from = LastEvaluatedKey;
  } while (from && found.length < limit);
  return found.slice(0, limit);
}

/** A settled refusal lasts a day at most (TTL), should its sync never come back for it. */
const REFUSAL_TTL_SECONDS = 86_400;

/**
 * Done with a queued write, if it is still the one queued (a newer one queued meanwhile stays for the next
 * batch): applied, its item is deleted; refused because the store is full, or skipped because the store holds
 * a newer state, its item is marked with the outcome, for its sync to see.
 */
export async function settleWrite(
  db: Db,
  shard: number,
  write: PendingWrite,
  outcome: 'applied' | 'refused' | 'older',
) {
  const key = { pk: pendingPartition(shard), sk: write.host };
  const condition = { ConditionExpression: 't = :t', ExpressionAttributeValues: { ':t': write.t } };
  try {
    if (outcome === 'applied') {
      await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: key, ...condition }));
    } else {
      await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key,
          UpdateExpression: 'SET outcome = :outcome, #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ...condition,
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':outcome': outcome,
            ':ttl': Math.floor(Date.now() / 1000) + REFUSAL_TTL_SECONDS,
          },
        }),
      );
    }
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/**
 * Takes (or renews) the shard's lease for `holder` until `now + ms`: true when it holds it. A lease that lapsed
 * (its holder died or overran) is taken over.
 */
export async function takeLease(db: Db, shard: number, holder: string, now: number, ms: number): Promise<boolean> {
  try {
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...leaseKey(shard), holder, until: now + ms },
        ConditionExpression: 'attribute_not_exists(pk) OR holder = :holder OR #until < :now',
        ExpressionAttributeNames: { '#until': 'until' },
        ExpressionAttributeValues: { ':holder': holder, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Gives the lease back, if `holder` still holds it. */
export async function releaseLease(db: Db, shard: number, holder: string): Promise<void> {
  try {
    await db.client.send(
      new DeleteCommand({
        TableName: db.tableName,
        Key: leaseKey(shard),
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The queue and lease of every shard, as the edge's writer asks for them (`ShardQueue`, `lib/edge/writer.ts`). */
export const shardQueue = (db: Db) => ({
  queue: (shard: number, write: PendingWrite) => queueWrite(db, shard, write),
  state: (shard: number, host: string, t: number) => writeState(db, shard, host, t),
  pending: (shard: number, limit: number) => pendingWrites(db, shard, limit),
  settle: (shard: number, write: PendingWrite, outcome: 'applied' | 'refused' | 'older') =>
    settleWrite(db, shard, write, outcome),
  takeLease: (shard: number, holder: string, now: number, ms: number) => takeLease(db, shard, holder, now, ms),
  releaseLease: (shard: number, holder: string) => releaseLease(db, shard, holder),
});
