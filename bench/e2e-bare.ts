/**
 * Section 5 helper, run as its own process: the DynamoDB calls of one operation issued directly, with the API's
 * client configuration and the same concurrency as the HTTP load, for a fixed time. The floor our stack is
 * compared with. Needs BARE_OP (show | list), BARE_OWNER, BARE_ID, BARE_SECONDS, BARE_CONNECTIONS.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createDb } from '#lib/data/dynamodb.ts';
import * as keys from '#lib/data/keys.ts';
import { collectionRange } from '#lib/data/listing.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { percentile, round, writeResult } from './support.ts';

const { client: db, tableName } = createDb(loadConfig(process.env));
const range = collectionRange('space');

const op = process.env.BARE_OP;
const owner = process.env.BARE_OWNER as string;
const id = Number(process.env.BARE_ID);
const seconds = Number(process.env.BARE_SECONDS);
const connections = Number(process.env.BARE_CONNECTIONS);

/** Exactly what `show` and the first page of `list` ask of DynamoDB (lib/data/collection.ts). */
const show = () =>
  db.send(new GetCommand({ TableName: tableName, Key: keys.itemKey(owner, 'space', id), ConsistentRead: true }));
const list = () =>
  Promise.all([
    db.send(
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
    db.send(new GetCommand({ TableName: tableName, Key: keys.counterKey(owner, 'space'), ConsistentRead: true })),
  ]);
const calls: Record<string, () => Promise<unknown>> = { show, list };
const call = calls[op ?? ''];
if (!call) throw new Error(`BARE_OP must be show or list, got ${op}`);
const issue = call;

async function load(durationMs: number) {
  const latencies: number[] = [];
  const until = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      await issue();
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { latencies, elapsed: (performance.now() - started) / 1000 };
}

await load(1_000);
const { latencies, elapsed } = await load(seconds * 1000);
writeResult({
  requests: latencies.length,
  rps: round(latencies.length / elapsed, 1),
  p50: round(percentile(latencies, 50)),
  p99: round(percentile(latencies, 99)),
});
db.destroy();
