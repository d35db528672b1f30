import { randomBytes } from 'node:crypto';
import { startDynamoDbLocal, ensureTable } from '#infra/local/dynamodb-local.ts';
import { runSection } from './support.ts';
const d = await startDynamoDbLocal({ dataDir: '/work/main/.bench-data/dynamodb' });
try {
  await ensureTable(d.endpoint, process.env.T ?? 'bench-handlers');
  const t = performance.now();
  const r: any = await runSection(process.argv[2]!, { DYNAMODB_ENDPOINT: d.endpoint, TABLE_NAME: process.env.T ?? 'bench-handlers', CURSOR_SECRET: randomBytes(32).toString('base64url'), AWS_REGION: 'local' });
  console.log(JSON.stringify(r, null, 0).slice(0, 20000));
  console.log('took', performance.now() - t);
} finally { await d.stop(); }
