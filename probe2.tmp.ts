import { DynamoDBDocumentClient, TransactWriteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal, localClient, ensureTable } from '#infra/local/dynamodb-local.ts';
const dynamo = await startDynamoDbLocal();
try {
  await ensureTable(dynamo.endpoint, 'ttt');
  const doc = DynamoDBDocumentClient.from(localClient(dynamo.endpoint));
  const T = 'ttt';
  // warm
  for (let i = 0; i < 200; i++) await doc.send(new PutCommand({ TableName: T, Item: { pk: 'w', sk: String(i) } }));
  // A: 50 concurrent unconditional transactions touching one counter
  let t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, (_, i) => doc.send(new TransactWriteCommand({ TransactItems: [
    { Update: { TableName: T, Key: { pk: 'a', sk: 'c' }, UpdateExpression: 'ADD #n :1', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':1': 1 } } },
    { Put: { TableName: T, Item: { pk: 'a', sk: `i${i}` } } }] }))));
  console.log('50 ADD tx', (performance.now() - t0).toFixed(0), 'ms');
  // B: sequential tx
  t0 = performance.now();
  for (let i = 0; i < 50; i++) await doc.send(new TransactWriteCommand({ TransactItems: [
    { Update: { TableName: T, Key: { pk: 'b', sk: 'c' }, UpdateExpression: 'ADD #n :1', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':1': 1 } } },
    { Put: { TableName: T, Item: { pk: 'b', sk: `i${i}` } } }] }));
  console.log('50 sequential tx', (performance.now() - t0).toFixed(0), 'ms');
  // C: CAS with immediate retry, 50 writers
  await doc.send(new PutCommand({ TableName: T, Item: { pk: 'c', sk: 'seq', last: 0 } }));
  let attempts = 0;
  t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, async (_, i) => {
    let seen = 0;
    for (;;) {
      attempts++;
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: [
          { Update: { TableName: T, Key: { pk: 'c', sk: 'seq' }, UpdateExpression: 'SET #l = :n', ConditionExpression: '#l = :s', ExpressionAttributeNames: { '#l': 'last' }, ExpressionAttributeValues: { ':n': seen + 1, ':s': seen }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
          { Put: { TableName: T, Item: { pk: 'c', sk: `e${seen + 1}` } } }] }));
        return;
      } catch (e: any) {
        const item = e.CancellationReasons?.[0]?.Item;
        seen = Number(item?.last?.N ?? seen);
      }
    }
  }));
  console.log('50 CAS immediate', (performance.now() - t0).toFixed(0), 'ms', attempts, 'attempts');
} finally { await dynamo.stop(); }
