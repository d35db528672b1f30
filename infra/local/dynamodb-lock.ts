/**
 * The lock on a DynamoDB Local data folder (`<dbPath>/dynamodb-local.lock`): one DynamoDB Local per folder,
 * whatever its port, and a stale one (its parent gone) stopped by the pid it recorded, once `/proc` shows that
 * pid is DynamoDB Local on that folder.
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning, type LockHolder, startTime } from './settings.ts';

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
export async function lockDynamoDbFolder(dbPath: string, port: number): Promise<string> {
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

/** The lock names its Java process (and the port it listens on), for a later start to stop it if orphaned. */
export function recordJava(lock: string, pid: number, port: number): void {
  const held: DynamoDbLock = {
    parent: { pid: process.pid, started: startTime(process.pid) },
    java: { pid, started: startTime(pid) },
    port,
  };
  writeFileSync(lock, `${JSON.stringify(held)}\n`);
}

/** Gives the folder back, if this process still holds it. */
export function releaseDynamoDbFolder(lock: string): void {
  if (readDynamoDbLock(lock)?.parent.pid === process.pid) rmSync(lock, { force: true });
}
