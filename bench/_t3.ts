import { startDynamoDbLocal, ensureTable } from '#infra/local/dynamodb-local.ts';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
for (const dataDir of ['/work/main/.bench-data/dynamodb', undefined]) {
const d = await startDynamoDbLocal({ dataDir });
try {
  await ensureTable(d.endpoint, 'seedtest');
  const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: d.endpoint, region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }));
  for (const conc of [1, 4]) {
  const t = performance.now();
  let n = 0;
  const worker = async () => { while (n < 200) { const b = n++; await db.send(new BatchWriteCommand({ RequestItems: { seedtest: Array.from({ length: 24 }, (_, i) => ({ PutRequest: { Item: { pk: `P#${conc}`, sk: `S#${b}-${i}`, lsi1sk: `x${b}-${i}`, name: 'Harbor 000001', fold: 'harbor 000001', color: 1, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z', kind: 'space', id: b } } })) } })); } };
  await Promise.all(Array.from({ length: conc }, worker));
  console.log(dataDir ? 'disk' : 'mem', 'conc', conc, ((performance.now() - t) / 200).toFixed(1), 'ms/batch');
  }
} finally { await d.stop(); }
}
