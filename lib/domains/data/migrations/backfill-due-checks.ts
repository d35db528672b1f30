/**
 * The migration that puts active domains stored before the due-check index existed into it, due at once: for
 * each such domain, an update of its index keys alone, on the condition that it is still active and still
 * without them (deleted, returned to pending or given its keys since the scan read it: nothing to add). The
 * keys are not part of the domain as the API shows it: no new version, no event. Run by an operator
 * (docs/deployment.md); safe to run again, and while the API serves.
 */
import type { Db } from '#lib/data/dynamodb.ts';
import { dueCheckShard, partitionOwner } from '#lib/data/keys.ts';
import { backfill } from '#lib/data/migrations/backfill.ts';
import { tableDefinition } from '#lib/data/table.ts';

export function backfillDueChecks(db: Db, now = new Date()): Promise<{ scanned: number; added: number }> {
  const { partitionKey, sortKey } = tableDefinition.dueCheckIndex;
  const activeWithoutKeys = 'attribute_not_exists(#shard) AND (attribute_not_exists(#status) OR #status = :active)';
  const names = { '#kind': 'kind', '#status': 'status', '#shard': partitionKey };
  const values = { ':domain': 'domain', ':active': 'active' };
  return backfill(db, {
    scan: { filter: `#kind = :domain AND ${activeWithoutKeys}`, projection: 'pk, sk, id', names, values },
    update(key) {
      const owner = partitionOwner(String(key.pk));
      if (owner === null) return null;
      return {
        Key: { pk: key.pk, sk: key.sk },
        UpdateExpression: 'SET #shard = :shard, #due = :due',
        ConditionExpression: `attribute_exists(pk) AND #kind = :domain AND ${activeWithoutKeys}`,
        ExpressionAttributeNames: { ...names, '#due': sortKey },
        ExpressionAttributeValues: {
          ...values,
          ':shard': dueCheckShard(owner, Number(key.id)),
          ':due': now.toISOString(),
        },
      };
    },
  });
}
