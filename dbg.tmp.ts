import { startDynamoDbLocal, ensureTable } from '#infra/local/dynamodb-local.ts';
import { loadConfig } from '#lib/config.ts';
import { createDb } from '#lib/dynamodb.ts';
import { directEvent, lambdaContext, loadFunction, type ApiHandler } from '#infra/local/lambda.ts';
const dynamo = await startDynamoDbLocal();
try {
  await ensureTable(dynamo.endpoint, 'dbg');
  const config = loadConfig({ DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: 'dbg', CURSOR_SECRET: 'x'.repeat(40), AWS_REGION: 'local' });
  const db = createDb(config);
  const store = await loadFunction<ApiHandler>('spaces/store', config, db);
  for (let i = 0; i < 30; i++) await store(directEvent({ method: 'POST', url: '/api/v1/spaces', owner: 'warm', form: { name: `W ${i}` } }), lambdaContext('x'));
  for (const n of [1, 10, 50, 200]) {
  const t0 = Date.now();
  const res = await Promise.all(Array.from({ length: n }, (_, i) => store(directEvent({ method: 'POST', url: '/api/v1/spaces', owner: `o${n}`, form: { name: `S ${i}` } }), lambdaContext('x'))));
  const counts: Record<string, number> = {};
  for (const r of res) counts[r.statusCode] = (counts[r.statusCode] ?? 0) + 1;
  console.log(counts, Date.now() - t0, 'ms');
  for (const r of res) if (r.statusCode !== 201) { console.log(r.body); break; }
  }
} finally { await dynamo.stop(); }
