/** Where `npm start` keeps its state, shared with the key tool so it finds the running stack. */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { FAST_RECHECK_INTERVAL_MS } from '#lib/domains/rules/dns-records.ts';

/** The CNAME target domains show locally: no DNS points anywhere real, `npm run dns -- --cname` serves it. */
export const LOCAL_EDGE_HOSTNAME = 'edge.localhost';

export type LocalSettings = {
  dataDir: string;
  tableName: string;
  /** The address DynamoDB Local and the gateway listen on: this machine only, unless `HOST` says otherwise. */
  host: string;
  /** The gateway's port; 0 for any free one. */
  port: number;
  /** DynamoDB Local's port; 0 for any free one. */
  dynamodbPort: number;
  /** The local edge's port (verified domains' redirects): EDGE_PORT, by default the API's port + 1. */
  edgePort: number;
  /** The local CloudFront stand-in's port (its API, which the edge sync calls): CLOUDFRONT_PORT, by default PORT + 2. */
  cloudfrontPort: number;
  /**
   * Whether webhooks may call `http://` on this machine (WEBHOOK_LOCAL_LOOPBACK): by default only when every
   * listener of the stack is on the loopback (HOST a loopback address), so that nobody on the network can make
   * the stack call this machine's ports.
   */
  webhookLocalLoopback: boolean;
  /** The pages a served domain without its own redirects to ('' for none): as a stage's settings on AWS. */
  defaultIndexPage: string;
  defaultNotFoundPage: string;
  /** How often the scheduled jobs run (DOMAIN_CHECK_INTERVAL_SECONDS; 5 minutes, as on AWS): re-check, edge sweep. */
  domainCheckIntervalMs: number;
};

function portSetting(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new Error(`${name} must be a port number (0-65535), not "${value}".`);
  return port;
}

/** A loopback address or name: what `HOST` is when only this machine reaches the stack. */
export const isLoopbackHost = (host: string): boolean =>
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === 'localhost';

function booleanSetting(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  if (value !== 'true' && value !== 'false') throw new Error(`${name} must be true or false, not "${value}".`);
  return value === 'true';
}

function positiveSeconds(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new Error(`${name} must be a whole number of seconds (1 or more), not "${value}".`);
  return Number(value);
}

/** The local stack's settings, from the environment of the command that runs it. */
export function localSettings(env: Record<string, string | undefined>): LocalSettings {
  const port = portSetting(env, 'PORT', 3000);
  const host = env.HOST || '127.0.0.1';
  return {
    dataDir: resolve(env.DATA_DIR ?? '.data'),
    tableName: env.TABLE_NAME ?? 'domains-spaces-local',
    host,
    port,
    dynamodbPort: portSetting(env, 'DYNAMODB_PORT', 8000),
    // Any free port for the edge and CloudFront too when the API takes any free one.
    edgePort: portSetting(env, 'EDGE_PORT', port === 0 ? 0 : port + 1),
    cloudfrontPort: portSetting(env, 'CLOUDFRONT_PORT', port === 0 ? 0 : port + 2),
    // Every listener (the API, the edge, DynamoDB Local) is on HOST; the local CloudFront is always on 127.0.0.1.
    webhookLocalLoopback: booleanSetting(env, 'WEBHOOK_LOCAL_LOOPBACK', isLoopbackHost(host)),
    defaultIndexPage: env.DEFAULT_INDEX_PAGE ?? '',
    defaultNotFoundPage: env.DEFAULT_NOT_FOUND_PAGE ?? '',
    domainCheckIntervalMs:
      positiveSeconds(env, 'DOMAIN_CHECK_INTERVAL_SECONDS', FAST_RECHECK_INTERVAL_MS / 1_000) * 1_000,
  };
}

/** What `npm start` writes into `<data dir>/local-stack.json` once the stack answers. */
export type LocalStack = {
  /** DynamoDB's endpoint (DynamoDB Local's, or DYNAMODB_ENDPOINT). */
  endpoint: string;
  tableName: string;
  /** The API's base URL, e.g. `http://127.0.0.1:3000/api/v1`. */
  apiUrl: string;
  /** The file holding the development key (absolute path). */
  keyFile: string;
  /** The local edge, e.g. `http://127.0.0.1:3001`: `curl -H 'Host: <domain>' <edgeUrl>/`. */
  edgeUrl?: string;
  /** The `npm start` process that wrote this. */
  pid: number;
};

export const stackFile = (dataDir: string) => join(dataDir, 'local-stack.json');

/** Written whole or not at all (a temporary file renamed over it), so readers never see half of it. */
export function writeLocalStack(dataDir: string, stack: LocalStack): void {
  mkdirSync(dataDir, { recursive: true });
  const file = stackFile(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(stack, null, 2)}\n`);
  renameSync(temporary, file);
}

export function readLocalStack(dataDir: string): LocalStack | null {
  const file = stackFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalStack) : null;
}

/** A value generated once and kept in the data folder (mode 600), so it survives restarts. */
export function persistedSecret(
  dataDir: string,
  name: string,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

export function saveSecret(dataDir: string, name: string, value: string): void {
  writeFileSync(join(dataDir, name), `${value}\n`, { mode: 0o600 });
}

// ---- The data folder's lock ----------------------------------------------------------------------------

export const LOCK_FILE = 'npm-start.lock';

/** Who holds the lock: the pid, and (on Linux) when that process started, so a reused pid is not mistaken for it. */
export type LockHolder = { pid: number; started?: string };

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`${shownPath(dataDir)} is in use by a running npm start (pid ${pid}); stop it or set DATA_DIR`);
    this.name = 'DataDirInUseError';
  }
}

/** The data folder as the user would name it: relative to the working directory when inside it. */
function shownPath(dataDir: string): string {
  const path = relative(process.cwd(), dataDir);
  return path === '' || path.startsWith('..') || isAbsolute(path) ? dataDir : path;
}

/** The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat); unknown off Linux. */
export function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

export function isRunning({ pid, started }: LockHolder): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTime(pid);
  return started === undefined || now === undefined || now === started;
}

function removeIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function readHolder(lock: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(lock, 'utf8')) as LockHolder;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { pid: 0 }; // unreadable: left by a crash mid-write of an older version, i.e. stale
  }
}

/**
 * Takes `<dataDir>/npm-start.lock` for this process before anything else is written there, or throws
 * `DataDirInUseError` naming the running `npm start` that holds it. A lock whose process is gone is stale
 * and taken over. The lock is created whole (a hard link to a complete file), so it is never read half
 * written. Returns the release, also run when the process exits.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, started: startTime(process.pid) };
  const temporary = `${lock}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(mine)}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temporary, lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      }
      const holder = readHolder(lock);
      if (holder && isRunning(holder)) throw new DataDirInUseError(dataDir, holder.pid);
      // Stale: its process is gone. Remove it and try again (a racing start may win; then it is the holder).
      if (holder) removeIfPresent(lock);
    }
  } finally {
    unlinkSync(temporary);
  }
  const release = () => {
    process.off('exit', release);
    if (readHolder(lock)?.pid === process.pid) removeIfPresent(lock);
  };
  process.on('exit', release);
  return release;
}
