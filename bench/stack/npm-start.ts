/**
 * `npm start` (infra/local/start.ts) in a process of its own, on free ports of 127.0.0.1, over the bench's
 * DynamoDB Local: what a section measuring the whole local stack (gateway, local CloudFront and edge, the
 * follower of the change feed) starts. The stack is ready once it has written its local-stack.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '#infra/bundling.ts';
import type { LocalStack } from '#infra/local/settings.ts';

export type NpmStart = {
  /** The API's base URL, e.g. `http://127.0.0.1:40123/api/v1`. */
  api: string;
  /** The local edge's URL. */
  edge: string;
  /** The development key `npm start` created. */
  key: string;
  /** The last 4,000 characters the stack printed (its request log, its errors): for error messages. */
  output: () => string;
  stop: () => Promise<void>;
};

/** How long `npm start` may take to answer. */
const START_TIMEOUT_MS = 60_000;

/**
 * Starts `npm start` with its data in `dataDir` and `env` on top of this process's environment (DYNAMODB_ENDPOINT,
 * TABLE_NAME and CURSOR_SECRET come from there); HOST, PORT and EDGE_PORT are set to loopback and free ports.
 */
export async function startNpmStart(dataDir: string, env: Record<string, string>): Promise<NpmStart> {
  const stackFile = join(dataDir, 'local-stack.json');
  rmSync(stackFile, { force: true });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'infra/local/start.ts')], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', EDGE_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept for the error message only: the gateway's request log and the follower's errors.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const deadline = Date.now() + START_TIMEOUT_MS;
  let stack: LocalStack | null = null;
  while (!stack) {
    if (done) throw new Error(`npm start exited before it answered:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`npm start did not answer within ${START_TIMEOUT_MS / 1000} s:\n${output}`);
    }
    await sleep(100);
    if (!existsSync(stackFile)) continue;
    const written = JSON.parse(readFileSync(stackFile, 'utf8')) as LocalStack;
    if (written.pid === child.pid && written.edgeUrl) stack = written;
  }
  return {
    api: stack.apiUrl,
    edge: stack.edgeUrl as string,
    key: readFileSync(stack.keyFile, 'utf8').trim(),
    output: () => output,
    stop: async () => {
      if (done) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
