/** What every benchmark section shares: run settings, statistics, the machine, and child processes. */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '#infra/bundling.ts';

/** `BENCH_QUICK=1` shrinks every section to validate the suite; its figures are not meant to be published. */
export const quick = process.env.BENCH_QUICK === '1';

/** Git-ignored: the persisted DynamoDB Local data (the seeded collections) and the written bundles. */
export const benchDataDir = join(projectRoot, '.bench-data');

export type Summary = { median: number; min: number; max: number; n: number };

export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0..100) of values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const ordered = sorted(values);
  const rank = Math.ceil((p / 100) * ordered.length);
  return ordered[Math.min(ordered.length - 1, Math.max(0, rank - 1))] as number;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export function summarize(values: readonly number[]): Summary {
  const ordered = sorted(values);
  return {
    median: median(ordered),
    min: ordered[0] ?? Number.NaN,
    max: ordered.at(-1) ?? Number.NaN,
    n: ordered.length,
  };
}

export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** An owner's change feed checked against the writes that succeeded (the contention section's verdict). */
export type FeedCheck = {
  /** Events read, and successful writes that each should have one. */
  events: number;
  expected: number;
  /** Ids missing below the highest id read. */
  gaps: number;
  /** Successful writes with no event. */
  lost: number;
  /** Events that no successful write accounts for: a second event of one write, or a 503 that wrote. */
  duplicated: number;
  /** The ids read are exactly 1..n, each once. */
  gapless: boolean;
};

/**
 * Checks a feed read from its start: `events` as read (id, and the change it reports as `<resource>@<version>`),
 * `writes` the changes that were answered as successful, one entry each.
 */
export function checkFeed(events: readonly { id: number; change: string }[], writes: readonly string[]): FeedCheck {
  const ids = new Set(events.map((event) => event.id));
  const highest = Math.max(0, ...ids);
  let gaps = 0;
  for (let id = 1; id <= highest; id++) if (!ids.has(id)) gaps++;
  // Per change: + for each write, − for each event; what remains is lost (+) or duplicated (−).
  const balance = new Map<string, number>();
  for (const change of writes) balance.set(change, (balance.get(change) ?? 0) + 1);
  for (const { change } of events) balance.set(change, (balance.get(change) ?? 0) - 1);
  let lost = 0;
  let duplicated = 0;
  for (const count of balance.values()) {
    if (count > 0) lost += count;
    else duplicated -= count;
  }
  const gapless = ids.size === events.length && highest === events.length;
  return { events: events.length, expected: writes.length, gaps, lost, duplicated, gapless };
}

export type Machine = {
  cpuModel: string;
  nproc: number;
  node: string;
  platform: string;
  loadAverage: number[];
};

/** The machine the figures were measured on. */
export function machine(): Machine {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    nproc: cpus().length,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg().map((value) => round(value, 2)),
  };
}

/**
 * Runs a section script (`bench/<file>`) in a fresh Node process through tsx, with extra environment;
 * the script writes its JSON result to the file named by BENCH_OUT, which is returned parsed.
 */
export async function runSection<Result>(file: string, env: Record<string, string>): Promise<Result> {
  const out = join(tmpdir(), `bench-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  await runNode(['--import', 'tsx', join(projectRoot, 'bench', file)], { ...env, BENCH_OUT: out });
  try {
    return JSON.parse(readFileSync(out, 'utf8')) as Result;
  } finally {
    rmSync(out, { force: true });
  }
}

/** Runs `node <args>` (this Node binary by default), streaming stderr, resolving with stdout; rejects on failure. */
export function runNode(
  args: string[],
  env: Record<string, string> = {},
  nodePath = process.execPath,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(nodePath, args, {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`node ${args.join(' ')} exited with ${code}\n${stdout.slice(-2_000)}`));
    });
  });
}

/** Writes a section's result where the orchestrator expects it. */
export function writeResult(result: unknown): void {
  const out = process.env.BENCH_OUT;
  if (out) writeFileSync(out, JSON.stringify(result));
  else console.log(JSON.stringify(result, null, 2));
}

export function progress(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
