/**
 * The local table (`npm start`, the tests, the benchmarks): created from the shared definition with the TTL
 * attribute CDK sets, also when an earlier version left a table without TTL or with TTL on another attribute.
 */
import { randomUUID } from 'node:crypto';
import { DescribeTimeToLiveCommand, DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';
import { config } from '#test/support/database.ts';

const endpoint = config.dynamodbEndpoint as string;
const client = new DynamoDBClient({
  endpoint,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
afterAll(() => client.destroy());

const timeToLive = async (tableName: string) =>
  (await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }))).TimeToLiveDescription;

describe('ensureTable', () => {
  it('creates a table whose TTL is on, on the attribute events and idempotency records carry', async () => {
    // Prepare
    const tableName = `local-${randomUUID()}`;
    // Act
    await ensureTable(endpoint, tableName);
    // Assess
    expect(await timeToLive(tableName)).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
  });

  it('moves TTL to that attribute on a table an earlier version left with TTL on another one', async () => {
    // Prepare
    const tableName = `local-${randomUUID()}`;
    await ensureTable(endpoint, tableName);
    const off = { TableName: tableName, TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: false } };
    await client.send(new UpdateTimeToLiveCommand(off));
    const elsewhere = { TableName: tableName, TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true } };
    await client.send(new UpdateTimeToLiveCommand(elsewhere));
    // Act
    await ensureTable(endpoint, tableName);
    // Assess
    expect(await timeToLive(tableName)).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
  });

  it('leaves a table that is already right as it is, and can be run again', async () => {
    // Act
    await ensureTable(endpoint, config.tableName);
    await ensureTable(endpoint, config.tableName);
    // Assess
    expect(await timeToLive(config.tableName)).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
  });
});
