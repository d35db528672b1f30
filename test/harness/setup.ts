/**
 * The harness suites' database: a fresh table per test file in the DynamoDB Local the global setup started, and
 * a harness of each test's own in front of it (its draws then depend on its seed alone).
 */
import { randomUUID } from 'node:crypto';
import { inject, onTestFinished } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';
import { createDb, type Db } from '#lib/data/dynamodb.ts';
import { type Harness, type HarnessOptions, startHarness } from '#test/support/dynamodb-harness.ts';

export const target = inject('dynamoEndpoint');
if (!target) throw new Error('These tests need DynamoDB Local: the global setup did not provide its endpoint.');

export const tableName = `harness-${randomUUID()}`;
await ensureTable(target, tableName);

/** A document client at `endpoint` without SDK retries, so that every answer is seen as the harness gave it. */
export const dbAt = (endpoint: string): Db =>
  createDb({ tableName, dynamodbEndpoint: endpoint, region: 'local', maxItemsPerOwner: 10_000 }, { maxAttempts: 1 });

/** A harness for this test (stopped when it ends), a client through it, and one straight to DynamoDB Local. */
export async function harnessed(
  options: Omit<HarnessOptions, 'target'>,
): Promise<{ harness: Harness; db: Db; direct: Db }> {
  const harness = await startHarness({ target, ...options });
  const db = dbAt(harness.endpoint);
  const direct = dbAt(target);
  onTestFinished(async () => {
    db.client.destroy();
    direct.client.destroy();
    await harness.stop();
  });
  return { harness, db, direct };
}

/** A partition of this test's own, so tests sharing the table never see each other's items. */
export const partition = (): string => `P#${randomUUID()}`;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
