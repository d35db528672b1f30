/**
 * Runs before each integration and e2e test file: points the code at DynamoDB Local and a fresh table,
 * as a Lambda's environment would, before any module that reads configuration is imported.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';

const endpoint = inject('dynamoEndpoint');
if (!endpoint) throw new Error('Integration tests need DynamoDB Local: the global setup did not provide its endpoint.');

process.env.DYNAMODB_ENDPOINT = endpoint;
process.env.TABLE_NAME = `test-${randomUUID()}`;
process.env.CURSOR_SECRET = randomBytes(32).toString('base64url');
process.env.AWS_REGION = 'local';

await ensureTable(endpoint, process.env.TABLE_NAME);
