/**
 * Where the edge's sweep stands between its invocations (`lib/edge/sweep.ts`, `SweepCursor`): one item,
 * `EDGESWEEP` / `CURSOR`, outside every owner's partition. Each save is conditional on the version the sweep
 * loaded (or last saved), so two sweeps that ever overlapped (a retry of a run that had not ended) cannot move
 * the cursor back: the one that loses stops (`SweepOvertaken`), the next run goes on from the winner's cursor.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import type { TableKey } from '#lib/data/table.ts';

/**
 * Where the sweep's pass stands (`lib/edge/sweep.ts`): the shard whose store it is in (an index into the shards,
 * which only ever grow at the end) and the page it goes on from (none: the store's first), when the pass
 * started, and whether it finished.
 */
export type SweepCursor = {
  shard: number;
  token?: string;
  passStartedAt: number;
  done?: boolean;
  /**
   * Certificates of deleted tenants that ACM still called in use (its view of a deletion lags): tried again at the
   * start of every invocation until ACM deletes them or has none.
   */
  certificates?: string[];
};

/** Where the cursor is kept between invocations (`lib/edge/data/sweep-cursor.ts`); none: each call is a whole pass. */
export type CursorKeeper = {
  load(): Promise<SweepCursor | null>;
  save(cursor: SweepCursor): Promise<void>;
};

export const edgeSweepCursorKey: TableKey = { pk: 'EDGESWEEP', sk: 'CURSOR' };

/** Another sweep saved the cursor since this one loaded it. */
export class SweepOvertaken extends Error {
  constructor() {
    super('Another sweep moved the edge sweep cursor');
    this.name = 'SweepOvertaken';
  }
}

/** The cursor item as one sweep invocation reads and writes it (a keeper per invocation: it holds the version). */
export function edgeSweepCursor(db: Db): CursorKeeper {
  let version = 0;
  return {
    async load() {
      const { Item } = await db.client.send(
        new GetCommand({ TableName: db.tableName, Key: edgeSweepCursorKey, ConsistentRead: true }),
      );
      version = typeof Item?.version === 'number' ? Item.version : 0;
      return Item?.cursor ? (Item.cursor as SweepCursor) : null;
    },
    async save(cursor) {
      try {
        await db.client.send(
          new PutCommand({
            TableName: db.tableName,
            Item: { ...edgeSweepCursorKey, cursor, version: version + 1, savedAt: new Date().toISOString() },
            ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
            ...(version === 0 ? {} : { ExpressionAttributeValues: { ':version': version } }),
          }),
        );
        version++;
      } catch (error) {
        if (error instanceof ConditionalCheckFailedException) throw new SweepOvertaken();
        throw error;
      }
    },
  };
}
