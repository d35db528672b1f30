/**
 * Section 5, end to end: the local gateway (its own process, loopback only) under a bounded autocannon load
 * for show and list, next to the same DynamoDB calls issued by a bare script with the same client
 * configuration and concurrency, alternating in the same run. This process is the load generator.
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME, CURSOR_SECRET and EDGE_HOSTNAME (the gateway's domain functions).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '#infra/bundling.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { storeSpace } from '#lib/spaces/data/spaces.ts';
import { percentile, progress, quick, round, runSection, type Summary, summarize, writeResult } from './support.ts';

type AutocannonInstance = PromiseLike<{ non2xx: number; errors: number; timeouts: number }> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => AutocannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export const E2E_RATIO_TARGET = 1.3;
const SECONDS = quick ? 2 : 6;
const REPEATS = quick ? 1 : 3;
const CONNECTIONS = 10;
/** The stack's authorizer cache TTL (set by bench/run.ts from infra/stages.ts): the key lookup is not on every request. */
const AUTH_CACHE_TTL = Number(process.env.BENCH_AUTH_CACHE_TTL ?? 300);

type Load = { requests: number; rps: number; p50: number; p99: number };

export type EndToEndResult = {
  operation: string;
  ours: { rps: Summary; p50: Summary; p99: Summary };
  bare: { rps: Summary; p50: Summary; p99: Summary };
  /** Per repeat, ours ÷ bare: latency percentiles, and time per request (bare req/s ÷ our req/s). */
  ratio: { p50: Summary; p99: Summary; timePerRequest: Summary };
};

export type EndToEndSection = {
  seconds: number;
  repeats: number;
  connections: number;
  authCacheTtlSeconds: number;
  target: number;
  operations: EndToEndResult[];
  gatewayMaxRssMb: number;
};

/** Bounded HTTP load on one URL; latencies recorded at full resolution from each response. */
async function httpLoad(url: string, key: string, seconds: number): Promise<Load> {
  const latencies: number[] = [];
  const instance = autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
  });
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status === 200) latencies.push(ms);
  });
  const result = await instance;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return {
    requests: latencies.length,
    rps: round(latencies.length / seconds, 1),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
  };
}

/** Starts the gateway process; resolves with its URL and a stop function returning its peak RSS. */
async function startGatewayProcess(env: Record<string, string>) {
  const out = join(tmpdir(), `bench-gateway-${process.pid}-${randomUUID()}.json`);
  const child = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'bench', 'e2e-gateway.ts')], {
    cwd: projectRoot,
    env: { ...process.env, ...env, BENCH_OUT: out, BENCH_AUTH_CACHE_TTL: String(AUTH_CACHE_TTL) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}`)));
  });
  const stop = () =>
    new Promise<number>((resolve) => {
      child.once('exit', () => {
        try {
          resolve((JSON.parse(readFileSync(out, 'utf8')) as { maxRssBytes: number }).maxRssBytes);
        } catch {
          resolve(Number.NaN);
        } finally {
          rmSync(out, { force: true });
        }
      });
      child.kill('SIGTERM');
    });
  return { url, stop };
}

async function main() {
  const db = createDb(loadConfig(process.env));
  const owner = `bench-e2e-${randomUUID().slice(0, 8)}`;
  const { key } = await createApiKey(db, owner, 'benchmark');
  let id = 0;
  for (let index = 1; index <= 30; index++) {
    const space = (await storeSpace(db, owner, { name: `Load ${index}`, color: (index % 6) + 1 })).result;
    id ||= space.id;
  }
  db.client.destroy();

  const env = {
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT as string,
    TABLE_NAME: process.env.TABLE_NAME as string,
    CURSOR_SECRET: process.env.CURSOR_SECRET as string,
    // The gateway's domain functions need it at create (lib/routes.ts); bench/run.ts sets it.
    EDGE_HOSTNAME: process.env.EDGE_HOSTNAME as string,
  };
  const gateway = await startGatewayProcess(env);
  const operations = [
    { name: 'show', path: `/api/v1/spaces/${id}` },
    { name: 'list', path: '/api/v1/spaces' },
  ];
  const runs = new Map<string, { ours: Load[]; bare: Load[] }>();
  let maxRss = Number.NaN;
  try {
    // Warm-up: handler modules loaded, JIT warm, authorizer answer cached.
    for (const operation of operations) await httpLoad(`${gateway.url}${operation.path}`, key, 1);
    for (let repeat = 1; repeat <= REPEATS; repeat++) {
      for (const operation of operations) {
        progress(`end to end: ${operation.name}, repeat ${repeat}/${REPEATS} (${SECONDS} s ours, ${SECONDS} s bare)`);
        const ours = await httpLoad(`${gateway.url}${operation.path}`, key, SECONDS);
        const bare = await runSection<Load>('e2e-bare.ts', {
          ...env,
          BARE_OP: operation.name,
          BARE_OWNER: owner,
          BARE_ID: String(id),
          BARE_SECONDS: String(SECONDS),
          BARE_CONNECTIONS: String(CONNECTIONS),
        });
        const entry = runs.get(operation.name) ?? { ours: [], bare: [] };
        entry.ours.push(ours);
        entry.bare.push(bare);
        runs.set(operation.name, entry);
      }
    }
  } finally {
    maxRss = await gateway.stop();
  }

  const of = (loads: Load[]) => ({
    rps: summarize(loads.map((load) => load.rps)),
    p50: summarize(loads.map((load) => load.p50)),
    p99: summarize(loads.map((load) => load.p99)),
  });
  const ratio = (ours: Load[], bare: Load[], pick: (o: Load, b: Load) => number) =>
    summarize(ours.map((load, index) => round(pick(load, bare[index] as Load), 3)));
  const result: EndToEndSection = {
    seconds: SECONDS,
    repeats: REPEATS,
    connections: CONNECTIONS,
    authCacheTtlSeconds: AUTH_CACHE_TTL,
    target: E2E_RATIO_TARGET,
    operations: [...runs].map(([operation, { ours, bare }]) => ({
      operation,
      ours: of(ours),
      bare: of(bare),
      ratio: {
        p50: ratio(ours, bare, (o, b) => o.p50 / b.p50),
        p99: ratio(ours, bare, (o, b) => o.p99 / b.p99),
        timePerRequest: ratio(ours, bare, (o, b) => b.rps / o.rps),
      },
    })),
    gatewayMaxRssMb: round(maxRss / 2 ** 20, 1),
  };
  writeResult(result);
}

await main();
