/**
 * One-off migrations, run by an operator (docs/deployment.md): the only code that may Scan the table. Each is
 * safe to run twice and while the API serves.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { dueCheckShard, partitionOwner } from '#lib/data/keys.ts';
import { tableDefinition } from '#lib/data/table.ts';

/**
 * The migration that puts active domains stored before the due-check index existed into it, due at once:
 * one Scan of the table (a one-off, off every request path) and, for each such domain, an update of its index
 * keys alone, on the condition that it is still active and still without them. The keys are not part of the
 * domain as the API shows it: no new version, no event. Safe to run again, and while the API serves.
 */
export async function backfillDueChecks(db: Db, now = new Date()): Promise<{ scanned: number; added: number }> {
  const { partitionKey, sortKey } = tableDefinition.dueCheckIndex;
  const names = { '#kind': 'kind', '#status': 'status', '#shard': partitionKey, '#due': sortKey };
  const activeWithoutKeys = 'attribute_not_exists(#shard) AND (attribute_not_exists(#status) OR #status = :active)';
  let scanned = 0;
  let added = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new ScanCommand({
        TableName: db.tableName,
        FilterExpression: `#kind = :domain AND ${activeWithoutKeys}`,
        ProjectionExpression: 'pk, sk, id',
        ExpressionAttributeNames: { '#kind': 'kind', '#status': 'status', '#shard': partitionKey },
        ExpressionAttributeValues: { ':domain': 'domain', ':active': 'active' },
        ExclusiveStartKey: start,
      }),
    );
    scanned += page.ScannedCount ?? 0;
    for (const key of page.Items ?? []) {
      const owner = partitionOwner(String(key.pk));
      if (owner === null) continue;
      try {
        await db.client.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: { pk: key.pk, sk: key.sk },
            UpdateExpression: 'SET #shard = :shard, #due = :due',
            ConditionExpression: `attribute_exists(pk) AND #kind = :domain AND ${activeWithoutKeys}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: {
              ':shard': dueCheckShard(owner, Number(key.id)),
              ':due': now.toISOString(),
              ':domain': 'domain',
              ':active': 'active',
            },
          }),
        );
        added++;
      } catch (error) {
        // Deleted, returned to pending or given its keys since the scan read it: nothing to add.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { scanned, added };
}
