/**
 * Section 5: exactly what `show` and the first page of `list` ask of DynamoDB (lib/data/collection.ts), issued
 * directly with the API's client configuration: what the bare script (e2e-bare.ts) and the HTTP floor
 * (e2e-floor.ts) both call.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import * as keys from '#lib/data/keys.ts';
import { collectionRange } from '#lib/data/listing.ts';

export function bareCall(db: Db, op: string | undefined, owner: string, id: number): () => Promise<unknown> {
  const { client, tableName } = db;
  const range = collectionRange('space');
  const show = () =>
    client.send(new GetCommand({ TableName: tableName, Key: keys.itemKey(owner, 'space', id), ConsistentRead: true }));
  const list = () =>
    Promise.all([
      client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
          ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
          ExpressionAttributeValues: { ':pk': keys.ownerPartition(owner), ':from': range.from, ':to': range.to },
          ScanIndexForward: false,
          ConsistentRead: true,
          Limit: 10,
        }),
      ),
      client.send(new GetCommand({ TableName: tableName, Key: keys.counterKey(owner, 'space'), ConsistentRead: true })),
    ]);
  const calls: Record<string, () => Promise<unknown>> = { show, list };
  const call = calls[op ?? ''];
  if (!call) throw new Error(`BARE_OP must be show or list, got ${op}`);
  return call;
}
