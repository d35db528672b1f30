/**
 * The one loop of the one-off migrations that give items written before an index existed its keys (run by an
 * operator, docs/deployment.md, or by `npm start`): the only code that may Scan the table. One Scan, off every
 * request path, of the items `scan` filters; for each, the conditional update `update` makes of it (null: none),
 * where a failed condition means the item changed since the scan read it (a change gave it its keys, or it is
 * gone), which is nothing to add. Safe to run twice and while the API serves.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';

export type Backfill = {
  scan: {
    filter: string;
    projection: string;
    names: Record<string, string>;
    values: Record<string, unknown>;
  };
  /** The update that gives the item its keys, on the condition that it still needs them; null: skip it. */
  update(item: Record<string, unknown>): Omit<UpdateCommandInput, 'TableName'> | null;
};

export async function backfill(db: Db, { scan, update }: Backfill): Promise<{ scanned: number; added: number }> {
  let scanned = 0;
  let added = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new ScanCommand({
        TableName: db.tableName,
        FilterExpression: scan.filter,
        ProjectionExpression: scan.projection,
        ExpressionAttributeNames: scan.names,
        ExpressionAttributeValues: scan.values,
        ExclusiveStartKey: start,
      }),
    );
    scanned += page.ScannedCount ?? 0;
    for (const item of page.Items ?? []) {
      const input = update(item);
      if (!input) continue;
      try {
        await db.client.send(new UpdateCommand({ TableName: db.tableName, ...input }));
        added++;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { scanned, added };
}
