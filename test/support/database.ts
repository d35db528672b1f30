/**
 * The integration, e2e and reliability suites' database: the DynamoDB Local the global setup started, and a
 * fresh table for each test file. Tests pass this configuration to what they run; nothing reads the environment.
 *
 * Suites whose vitest project sets `TEST_DYNAMODB_HARNESS` (vitest.config.ts: the reliability suites, and the
 * idempotency, conditional and feed e2e suites) reach DynamoDB Local through the DynamoDB-faithful harness
 * (`dynamodb-harness.ts`): transactions that overlap one in flight are cancelled with `TransactionConflict`, a
 * few more at random, and a committed transaction's items become visible to plain reads one by one. Its draws
 * come from a printed seed (`TEST_SEED` replays them).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { edgeHostOf, loadConfig } from '#lib/platform/config.ts';
import { FAITHFUL, type Harness, startHarness } from './dynamodb-harness.ts';
import { seeded } from './seed.ts';

const endpoint = inject('dynamoEndpoint');
if (!endpoint) throw new Error('These tests need DynamoDB Local: the global setup did not provide its endpoint.');

/** The harness in front of DynamoDB Local, for the suites that run through it (its stats show it engaged). */
export const harness: Harness | undefined = process.env.TEST_DYNAMODB_HARNESS
  ? await startHarness({ target: endpoint, ...FAITHFUL, seed: seeded('the DynamoDB harness').seed })
  : undefined;
if (harness) afterAll(() => harness.stop());

export const config = loadConfig({
  DYNAMODB_ENDPOINT: harness?.endpoint ?? endpoint,
  TABLE_NAME: `test-${randomUUID()}`,
  CURSOR_SECRET: randomBytes(32).toString('base64url'),
  AWS_REGION: 'local',
  EDGE_HOSTNAME: 'edge.test',
});

/** How the test gateway's functions present domains (their CNAME names `EDGE_HOSTNAME`). */
export const stage = edgeHostOf(config);

/** The client every function of the test gateway shares, so a test can observe or fault every call. */
export const db = createDb(config);

await ensureTable(endpoint, config.tableName);
