/**
 * `npm start` (infra/local/start.ts) as a user runs it, in its own process, in a temporary folder with its
 * default data folder `.data` and free ports: everything it and its DynamoDB Local listen on is on the
 * loopback; a second `npm start` on the same data folder stops with a clear message and writes nothing; a
 * lock left by a process that is gone does not stop the next one.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type AddressInfo, connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import { freePort, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { LOCK_FILE, type LocalStack } from '#infra/local/settings.ts';

const START = join(projectRoot, 'infra', 'local', 'start.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The folder `npm start` is run from, and its data folder. */
const workDir = mkdtempSync(join(tmpdir(), 'local-stack-'));
const dataDir = join(workDir, '.data');

type Run = { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> };

/** The local CloudFront's port, set (CLOUDFRONT_PORT) so that the tests know it. */
let cloudfrontPort = 0;

/** `npm start` from `workDir`, on free ports, with the settings a developer's shell would not have set. */
function npmStart(settings: NodeJS.ProcessEnv = {}): Run {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    DYNAMODB_PORT: '0',
    CLOUDFRONT_PORT: String(cloudfrontPort),
    ...settings,
  };
  for (const name of [
    'HOST',
    'DATA_DIR',
    'DYNAMODB_ENDPOINT',
    'TABLE_NAME',
    'DNS_RESOLVER',
    'WEBHOOK_LOCAL_LOOPBACK',
  ]) {
    if (!(name in settings)) delete env[name];
  }
  const child = spawn(process.execPath, ['--import', TSX, START], { cwd: workDir, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Resolves once the stack answers (it says so last), or fails with what it printed. */
async function ready(run: Run, timeoutMs = 90_000): Promise<LocalStack> {
  const deadline = Date.now() + timeoutMs;
  while (!run.stdout().includes('Ctrl-C to stop.')) {
    if (run.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`npm start did not start (exit ${run.child.exitCode}):\n${run.stdout()}\n${run.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return JSON.parse(readFileSync(join(dataDir, 'local-stack.json'), 'utf8')) as LocalStack;
}

async function stop(run: Run): Promise<number | null> {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
  return run.exited;
}

// ---- Listening sockets, from /proc ---------------------------------------------------------------------

/** The process and all its descendants (DynamoDB Local's Java among them). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i]) tree.push(pid);
  }
  return tree;
}

/** A /proc/net/tcp{,6} address (`0100007F:1F90`: 32-bit words in host byte order) as bytes and a port. */
function parseAddress(hex: string): { bytes: number[]; port: number } {
  const [address = '', port = ''] = hex.split(':');
  const bytes: number[] = [];
  for (let word = 0; word < address.length; word += 8) {
    const chunk = address.slice(word, word + 8);
    for (let i = 6; i >= 0; i -= 2) bytes.push(Number.parseInt(chunk.slice(i, i + 2), 16));
  }
  return { bytes, port: Number.parseInt(port, 16) };
}

function isLoopback(bytes: number[]): boolean {
  if (bytes.length === 4) return bytes[0] === 127;
  const head = bytes.slice(0, 10).every((byte) => byte === 0);
  const ipv6Loopback = head && bytes.slice(10, 15).every((byte) => byte === 0) && bytes[15] === 1;
  const mappedIpv4Loopback = head && bytes[10] === 0xff && bytes[11] === 0xff && bytes[12] === 127;
  return ipv6Loopback || mappedIpv4Loopback;
}

const show = ({ bytes, port }: { bytes: number[]; port: number }) =>
  `${bytes.length === 4 ? bytes.join('.') : Buffer.from(bytes).toString('hex')}:${port}`;

/** Every TCP socket the processes listen on. */
function listeningSockets(pids: number[]): { bytes: number[]; port: number }[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = (() => {
          try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`);
          } catch {
            return '';
          }
        })();
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode) inodes.add(inode);
      }
    } catch {
      // gone meanwhile
    }
  }
  const sockets: { bytes: number[]; port: number }[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // fields: sl, local_address, rem_address, st (0A: LISTEN), …, inode (10th)
      if (fields[3] === '0A' && inodes.has(fields[9] as string)) sockets.push(parseAddress(fields[1] as string));
    }
  }
  return sockets;
}

/** Resolves with the error code of a TCP connection attempt, or 'connected'. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('ETIMEDOUT');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** This machine's addresses that are not loopback (the ones the LAN would use). */
const externalAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((address) => address && !address.internal && !address.address.startsWith('fe80:'))
    .map((address) => address?.address as string);

/** What `npm start` leaves at the top of the data folder, with each file's content and time of change. */
function snapshot(): Record<string, { content: string; mtimeMs: number }> {
  return Object.fromEntries(
    readdirSync(dataDir, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = join(dataDir, entry.name);
        return [entry.name, { content: readFileSync(file, 'utf8'), mtimeMs: statSync(file).mtimeMs }];
      }),
  );
}

// ---- The tests -----------------------------------------------------------------------------------------

let first: Run;
let stack: LocalStack;

beforeAll(async () => {
  cloudfrontPort = await freePort();
  first = npmStart();
  stack = await ready(first);
}, 120_000);

afterAll(async () => {
  if (first) await stop(first);
  rmSync(workDir, { recursive: true, force: true });
});

describe('npm start (infra/local/start.ts)', () => {
  it('writes where it runs into local-stack.json, and the key it names works there', async () => {
    // Act
    const key = readFileSync(stack.keyFile, 'utf8').trim();
    const reply = await fetch(`${stack.apiUrl}/spaces`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${key}` },
    });
    // Assess
    expect(stack).toMatchObject({
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/),
      endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      keyFile: join(dataDir, 'dev-key'),
      tableName: 'domains-spaces-local',
      pid: first.child.pid,
    });
    expect(reply.status).toBe(200);
  });

  it('writes exactly the fields the README lists for local-stack.json (edgeUrl among them)', () => {
    // Prepare: the README's sentence about the file.
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const sentence = readme.slice(
      readme.indexOf('writes `.data/local-stack.json`'),
      readme.indexOf('the key tool and the walkthrough'),
    );
    // Act
    const listed = [...sentence.matchAll(/`([a-zA-Z]+)`/g)].map((match) => match[1] as string);
    // Assess
    expect(Object.keys(stack).sort()).toEqual(listed.sort());
    expect(stack.edgeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("gives the README walkthrough's first block, run as written, the API and the key", async () => {
    // Prepare: the block, from the README, run by bash in the folder npm start runs in
    const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
    const walkthrough = readme.slice(readme.indexOf('## Walkthrough'));
    const block = /```sh\n([\s\S]*?)```/.exec(walkthrough)?.[1] ?? '';
    // Act
    const shell = spawnSync('bash', ['-c', `${block}\nprintf '%s\\n' "$API" "$KEY"`], {
      cwd: workDir,
      encoding: 'utf8',
    });
    const [api, key] = shell.stdout.trim().split('\n');
    const reply = await fetch(`${api}/spaces`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${key}` },
    });
    // Assess
    expect(shell.stderr).toBe('');
    expect(api).toBe(stack.apiUrl);
    expect(key).toBe(readFileSync(stack.keyFile, 'utf8').trim());
    expect(reply.status).toBe(200);
  });

  it('listens on the loopback only: the API and DynamoDB Local', async () => {
    // Prepare
    const apiPort = Number(new URL(stack.apiUrl).port);
    const dynamoPort = Number(new URL(stack.endpoint).port);
    // Act
    const sockets = listeningSockets(processTree(first.child.pid as number));
    const fromOutside = await Promise.all(
      externalAddresses().flatMap((address) =>
        [apiPort, dynamoPort].map(async (port) => ({ address, port, result: await tryConnect(address, port) })),
      ),
    );
    const fromLoopback = await Promise.all([apiPort, dynamoPort].map((port) => tryConnect('127.0.0.1', port)));
    // Assess: both ports are among the sockets, and every socket is on the loopback
    expect(sockets.map((socket) => socket.port)).toEqual(expect.arrayContaining([apiPort, dynamoPort]));
    expect(sockets.filter((socket) => !isLoopback(socket.bytes)).map(show)).toEqual([]);
    expect(fromLoopback).toEqual(['connected', 'connected']);
    // Refused (nothing listens there), or dropped by a firewall: never connected.
    for (const attempt of fromOutside)
      expect(attempt.result, `${attempt.address}:${attempt.port}`).not.toBe('connected');
  });

  it('listens for the local CloudFront on CLOUDFRONT_PORT', () => {
    // Act
    const sockets = listeningSockets(processTree(first.child.pid as number));
    // Assess
    expect(sockets.filter((socket) => socket.port === cloudfrontPort).map(show)).toEqual([
      `127.0.0.1:${cloudfrontPort}`,
    ]);
  });

  it("refuses the stack's own ports as a webhook's destination, and takes a receiver on this machine", async () => {
    // Prepare: every listener of the stack
    const key = readFileSync(stack.keyFile, 'utf8').trim();
    const ports = {
      PORT: new URL(stack.apiUrl).port,
      EDGE_PORT: new URL(stack.edgeUrl ?? '').port,
      DYNAMODB_PORT: new URL(stack.endpoint).port,
      CLOUDFRONT_PORT: String(cloudfrontPort),
    };
    const store = (url: string) =>
      fetch(`${stack.apiUrl}/webhooks`, {
        method: 'POST',
        headers: { Accept: 'application/json', Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url, events: ['space.*'] }),
      });
    // Act
    const refused = await Promise.all(
      Object.entries(ports).flatMap(([setting, port]) =>
        [`http://127.0.0.1:${port}/`, `http://localhost:${port}/x`].map(async (url) => {
          const reply = await store(url);
          return { setting, url, status: reply.status, body: (await reply.json()) as { errors?: { url?: string[] } } };
        }),
      ),
    );
    const receiver = await store(`http://127.0.0.1:${await freePort()}/hook`);
    // Assess: HOST is the loopback, so a receiver here is taken (WEBHOOK_LOCAL_LOOPBACK's default); the stack is not
    for (const each of refused) {
      expect(each.status, `${each.setting}: ${each.url}`).toBe(422);
      expect(each.body.errors?.url).toEqual([
        "The url field must not point to one of the local stack's own ports (its API, edge, DynamoDB Local or CloudFront).",
      ]);
    }
    expect(receiver.status).toBe(201);
  });

  it('refuses a second DynamoDB Local on the data folder, whatever its port', { timeout: 30_000 }, async () => {
    // Act
    const second = startDynamoDbLocal({ dataDir: join(dataDir, 'dynamodb'), port: await freePort() });
    // Assess
    await expect(second).rejects.toThrow(
      new RegExp(
        `dynamodb is in use by DynamoDB Local \\(pid \\d+, port ${new URL(stack.endpoint).port}\\) of a running process \\(pid ${first.child.pid}\\)`,
      ),
    );
  });

  it('names the setting to change when a port is in use', { timeout: 60_000 }, async () => {
    // Prepare: each listener's port held by another server, each start on a data folder of its own
    const held = createServer();
    await new Promise<void>((resolve) => held.listen(0, '127.0.0.1', resolve));
    const port = String((held.address() as AddressInfo).port);
    try {
      // Act
      const runs = await Promise.all(
        ['PORT', 'EDGE_PORT', 'CLOUDFRONT_PORT', 'DYNAMODB_PORT'].map(async (setting) => {
          const run = npmStart({
            DATA_DIR: mkdtempSync(join(workDir, 'busy-')),
            PORT: '0',
            EDGE_PORT: '0',
            CLOUDFRONT_PORT: '0',
            [setting]: port,
          });
          return { setting, code: await run.exited, stderr: run.stderr() };
        }),
      );
      // Assess
      for (const { setting, code, stderr } of runs) {
        expect(code, setting).toBe(1);
        expect(stderr).toContain(`Port ${port} (${setting}) is already in use`);
        expect(stderr).toContain(`set ${setting} to a free port`);
        expect(stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      held.close();
    }
  });

  it('refuses a second npm start on the same data folder, before writing anything', { timeout: 60_000 }, async () => {
    // Prepare
    const before = snapshot();
    // Act
    const second = npmStart();
    const code = await second.exited;
    // Assess: the message names the running one; the data folder (local-stack.json first) is as it was
    expect(code).not.toBe(0);
    expect(second.stderr()).toContain(
      `.data is in use by a running npm start (pid ${first.child.pid}); stop it or set DATA_DIR`,
    );
    expect(second.stderr()).not.toMatch(/\n\s+at /); // no stack trace
    expect(second.stdout()).toBe('');
    expect(snapshot()).toEqual(before);
    expect((await fetch(`${stack.apiUrl}/openapi.json`)).status).toBe(200);
  });

  it('stops on SIGTERM and releases the data folder; a lock whose process is gone does not hold it', {
    timeout: 120_000,
  }, async () => {
    // Act: stop the first
    const code = await stop(first);
    const lockAfterStop = readdirSync(dataDir).includes(LOCK_FILE);
    const stackFileAfterStop = readdirSync(dataDir).includes('local-stack.json');
    // Prepare: a lock left by a process that has exited (killed with SIGKILL, say)
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dataDir, LOCK_FILE), `${JSON.stringify({ pid: gone })}\n`);
    // Act: start again
    const next = npmStart();
    try {
      const restarted = await ready(next);
      const lock = JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8'));
      // Assess
      expect(code).toBe(0);
      expect(lockAfterStop).toBe(false);
      expect(stackFileAfterStop).toBe(false); // Ctrl-C (SIGINT) and SIGTERM remove it
      expect(restarted.pid).toBe(next.child.pid);
      expect(lock.pid).toBe(next.child.pid);
    } finally {
      await stop(next);
    }
  });
});
