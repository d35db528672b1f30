import { startDynamoDbLocal, ensureTable } from '#infra/local/dynamodb-local.ts';
import { loadConfig } from '#lib/config.ts';
import { createDb } from '#lib/dynamodb.ts';
import { directEvent, lambdaContext, loadFunction, type ApiHandler } from '#infra/local/lambda.ts';
const dynamo = await startDynamoDbLocal();
try {
  await ensureTable(dynamo.endpoint, 'dbg');
  const config = loadConfig({ DYNAMODB_ENDPOINT: dynamo.endpoint, TABLE_NAME: 'dbg', CURSOR_SECRET: 'x'.repeat(40), AWS_REGION: 'local' });
  const db = createDb(config);
  const log: string[] = [];
  const t00 = performance.now();
  db.client.middlewareStack.add((next, ctx) => async (args) => {
    const t0 = performance.now();
    try { const r = await next(args); log.push(`${(t0 - t00).toFixed(0)} ${ctx.commandName} ok ${(performance.now() - t0).toFixed(0)}ms`); return r; }
    catch (e: any) { log.push(`${(t0 - t00).toFixed(0)} ${ctx.commandName} ${e.name} ${JSON.stringify(e.CancellationReasons?.map((c: any) => c.Code))} ${(performance.now() - t0).toFixed(0)}ms`); throw e; }
  }, { step: 'initialize', name: 'timer' });
  const store = await loadFunction<ApiHandler>('spaces/store', config, db);
  for (let i = 0; i < 30; i++) await store(directEvent({ method: 'POST', url: '/api/v1/spaces', owner: 'warm', form: { name: `W ${i}` } }), lambdaContext('x'));
  log.length = 0;
  const n = Number(process.argv[2] ?? 10);
  const t0 = performance.now();
  const res = await Promise.all(Array.from({ length: n }, (_, i) => store(directEvent({ method: 'POST', url: '/api/v1/spaces', owner: `o`, form: { name: `S ${i}` } }), lambdaContext('x'))));
  console.log(res.map((r) => r.statusCode).join(','), (performance.now() - t0).toFixed(0));
  console.log(log.join('\n'));
} finally { await dynamo.stop(); }
