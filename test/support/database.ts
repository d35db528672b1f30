/**
 * The integration, e2e and reliability suites' database: the DynamoDB Local the global setup started, and a
 * fresh table for each test file. Tests pass this configuration to what they run; nothing reads the environment.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';
import { loadConfig } from '#lib/config.ts';
import { createDb } from '#lib/dynamodb.ts';

const endpoint = inject('dynamoEndpoint');
if (!endpoint) throw new Error('These tests need DynamoDB Local: the global setup did not provide its endpoint.');

export const config = loadConfig({
  DYNAMODB_ENDPOINT: endpoint,
  TABLE_NAME: `test-${randomUUID()}`,
  CURSOR_SECRET: randomBytes(32).toString('base64url'),
  AWS_REGION: 'local',
});

/** The client every function of the test gateway shares, so a test can observe or fault every call. */
export const db = createDb(config);

await ensureTable(endpoint, config.tableName);
