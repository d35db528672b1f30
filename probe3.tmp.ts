import { DynamoDBDocumentClient, TransactWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal, localClient, ensureTable } from '#infra/local/dynamodb-local.ts';
const dynamo = await startDynamoDbLocal();
try {
  await ensureTable(dynamo.endpoint, 'ttt');
  const doc = DynamoDBDocumentClient.from(localClient(dynamo.endpoint));
  const T = 'ttt';
  for (let i = 0; i < 100; i++) await doc.send(new PutCommand({ TableName: T, Item: { pk: 'w', sk: String(i) } }));
  for (const n of [20, 50]) {
    const pk = `p${n}`;
    const order: number[] = [];
    const t0 = performance.now();
    const res = await Promise.allSettled(Array.from({ length: n }, (_, i) => doc.send(new TransactWriteCommand({ TransactItems: [
      { Update: { TableName: T, Key: { pk, sk: 'seq' }, UpdateExpression: 'SET #l = :t', ConditionExpression: 'attribute_not_exists(#l) OR #l < :t', ExpressionAttributeNames: { '#l': 'last' }, ExpressionAttributeValues: { ':t': i + 1 } } },
      { Put: { TableName: T, Item: { pk, sk: `e${i}` } } }] })).then(() => order.push(i))));
    console.log(n, 'ok', res.filter((r) => r.status === 'fulfilled').length, (performance.now() - t0).toFixed(0), 'ms', order.join(','));
  }
} finally { await dynamo.stop(); }
