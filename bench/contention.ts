/**
 * Section 7, contention: concurrent writers on one owner and on many, through the DynamoDB-faithful harness
 * (`test/support/dynamodb-harness.ts` with its `FAITHFUL` settings: overlapping transactions cancelled with
 * TransactionConflict, a transaction's items revealed one by one). For each configuration, a fleet of writers
 * loops for a fixed time doing the API's write mix through the data layer (mostly `updateSpace` color changes
 * on a few stored spaces, some `storeSpace`); then each owner's whole feed is read with `listEvents` on a
 * direct client and checked against the writes that succeeded.
 *
 * Two roles in one file. This process is DynamoDB's side: the harness, the seeding, the feed check. Each
 * configuration's writers are the Lambdas' side: another process (this file again, with BENCH_CONTENTION_FLEET
 * set), where every writer has a `Db` of its own, as a separate Lambda process has, so nothing waits in a
 * process's queue (`inLine` in lib/data/commit.ts is keyed by the `Db`) and every race is decided at DynamoDB.
 * Keeping the fleet out of this process keeps its CPU off the harness's event loop, whose delays are the
 * transactions' time in flight. Needs DYNAMODB_ENDPOINT (DynamoDB Local) and TABLE_NAME.
 */
import { loadavg } from 'node:os';
import { RATE_LIMIT_WINDOW_SECONDS, rateLimits } from '#infra/rate-limits.ts';
import { WRITE_BUDGET_MS } from '#lib/data/commit.ts';
import { createDb, type Db } from '#lib/data/dynamodb.ts';
import { WriteContended } from '#lib/data/errors.ts';
import { listEvents } from '#lib/data/events.ts';
import { readFeedHead } from '#lib/data/feed-head.ts';
import { versionOf } from '#lib/data/version.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { type SpaceRecord, showSpace, storeSpace, updateSpace } from '#lib/spaces/data/spaces.ts';
import { FAITHFUL, type HarnessSettings, type HarnessStats, startHarness } from '#test/support/dynamodb-harness.ts';
import { BACKGROUND_POLL_MS, startBackground } from './stack/background.ts';
import { checkFeed, type FeedCheck, percentile, progress, quick, round, runSection, writeResult } from './support.ts';

/** How long each configuration's writers start measured writes. */
const SECONDS = quick ? 2 : 8;
/** An unmeasured run first (DynamoDB Local's JVM compiles its hot paths in the first seconds under load). */
const WARM_UP = { owners: 5, writers: 5, own: true, seconds: quick ? 1 : 3 } as const;
/** The spaces each owner holds before the writers start; updates pick one of them at random. */
const SPACES_PER_OWNER = 3;
/** The share of writes that store a new space; the rest change a stored space's color. */
const STORE_SHARE = 0.1;
/** A fleet whose writes fail otherwise than 503 this often is broken, not contended: the section stops. */
const MAX_ERRORS = 50;
/** The configuration the issue sets the target for, and the target's most 503s (percent of writes). */
const TARGET = { owners: 1, writers: 20, maxRate503: 1 } as const;

/** Writers on one owner, then each writer on its own owner. */
const configurations = [
  { owners: 1, writers: 1 },
  { owners: 1, writers: 5 },
  { owners: 1, writers: 20 },
  { owners: 1, writers: 1, own: true },
  { owners: 5, writers: 5 },
  { owners: 20, writers: 20 },
] as const satisfies readonly { owners: number; writers: number; own?: boolean }[];

/** What a fleet is told: its owners (writer w writes to owner w mod owners) and their stored spaces. */
type FleetPlan = { writers: number; owners: string[]; spaces: number[][]; seconds: number };
/**
 * A write that succeeded: the resource at the version it wrote (its event must say the same), its latency and
 * when it was answered; `measured` when it started within the window (the others only keep the contention up).
 */
type Write = { owner: number; change: string; ms: number; at: number; stored: boolean; measured: boolean };
type FleetResult = {
  writes: Write[];
  /** 503s of measured writes, and of the writes after the window. */
  contended: number;
  contendedAfter: number;
  errors: string[];
  windowMs: number;
};

export type ContentionRun = {
  /** "one owner" or "own owners" (each writer on an owner of its own). */
  shape: 'one owner' | 'own owners';
  writers: number;
  owners: number;
  /**
   * The window in which measured writes start. Writes in flight at its end finish (within the write budget)
   * and count, but not in the rate; meanwhile the writers keep writing, unmeasured, so that the last measured
   * writes meet as many competitors as the first.
   */
  seconds: number;
  /** Measured writes answered (succeeded, 503, or another error). */
  requests: number;
  commits: number;
  stores: number;
  /** Writes after the window that succeeded: not measured, but in the feed check. */
  commitsAfter: number;
  /** Commits that completed within the window, per second: all owners, and per owner. */
  commitsPerSecond: number;
  commitsPerSecondPerOwner: number;
  /** Latency of the successful writes, from the call to its answer. */
  latencyMs: { p50: number; p99: number; max: number };
  contended: number;
  /** 503s of the unmeasured writes after the window. */
  contendedAfter: number;
  /** 503s (`WriteContended`) in percent of the measured writes answered. */
  rate503: number;
  errors: number;
  errorSamples: string[];
  /** The harness's counters over the run (a fresh harness per configuration). */
  harness: HarnessStats;
  /** Every owner's feed against the writes that succeeded (the seeded spaces' stores included). */
  feed: FeedCheck & { owners: number; headsMatch: boolean };
  /**
   * What `npm start` runs beside the API, running through the harness during the run: the follower of the change
   * feeds (with the edge, on a local CloudFront) and the webhook worker. Its DynamoDB calls by command.
   */
  background: { pollMs: number; calls: Record<string, number> };
};

export type ContentionSection = {
  secondsPerRun: number;
  /** The unmeasured run before the others. */
  warmUp: { writers: number; owners: number; seconds: number };
  spacesPerOwner: number;
  storeShare: number;
  settings: HarnessSettings;
  writeBudgetMs: number;
  /** The prod per-key limit (`infra/rate-limits.ts`), per minute and per second. */
  waf: { perKeyPerMinute: number; perKeyPerSecond: number };
  target: typeof TARGET;
  /** Load average when the section started: the machine may be busy with other work. */
  loadAverage: number[];
  /** The section's wall time, seeding and feed checks included. */
  durationSeconds: number;
  runs: ContentionRun[];
};

const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)] as T;
const color = () => 1 + Math.floor(Math.random() * 6);
/** What a write left, as its event must show it: the resource and the version it wrote. */
const changeOf = (item: SpaceRecord) => `${item.id}@${versionOf(item)}`;

/** The Lambdas' side: every writer with its own client, writing back to back for the plan's time. */
async function fleet(plan: FleetPlan): Promise<FleetResult> {
  const config = loadConfig(process.env);
  const dbs = Array.from({ length: plan.writers }, () => createDb(config));
  const ownerOf = (writer: number) => writer % plan.owners.length;
  // A warm Lambda has its connection open: one read each before the clock starts.
  await Promise.all(
    dbs.map((db, writer) =>
      showSpace(db, plan.owners[ownerOf(writer)] as string, plan.spaces[ownerOf(writer)]?.[0] as number),
    ),
  );
  const writes: Write[] = [];
  const errors: string[] = [];
  let contended = 0;
  let contendedAfter = 0;
  /** Measured writes not answered yet: until there are none, every writer keeps writing. */
  let open = 0;
  const start = performance.now();
  const end = start + plan.seconds * 1000;
  const writer = async (db: Db, index: number) => {
    const at = ownerOf(index);
    const owner = plan.owners[at] as string;
    const spaces = plan.spaces[at] as number[];
    for (let n = 1; ; n++) {
      const began = performance.now();
      const measured = began < end;
      if (!measured && open === 0) return;
      if (measured) open += 1;
      const stored = Math.random() < STORE_SHARE;
      try {
        const item = stored
          ? (await storeSpace(db, owner, { name: `Writer ${index} space ${n}`, color: color() })).result
          : (await updateSpace(db, owner, pick(spaces), { color: color() })).result;
        const now = performance.now();
        writes.push({ owner: at, change: changeOf(item), ms: now - began, at: now - start, stored, measured });
      } catch (error) {
        if (!(error instanceof WriteContended)) {
          if (errors.push(`${(error as Error).name}: ${(error as Error).message}`) >= MAX_ERRORS) throw error;
        } else if (measured) contended += 1;
        else contendedAfter += 1;
      } finally {
        if (measured) open -= 1;
      }
    }
  };
  await Promise.all(dbs.map(writer));
  for (const db of dbs) db.client.destroy();
  return { writes, contended, contendedAfter, errors, windowMs: plan.seconds * 1000 };
}

/** The owner's whole feed, page by page, as events of (resource id @ version). */
async function readFeed(db: Db, owner: string): Promise<{ id: number; change: string }[]> {
  const events: { id: number; change: string }[] = [];
  let after = { epoch: undefined as number | undefined, id: 0, since: 0 };
  for (;;) {
    const page = await listEvents(db, owner, { after, perPage: 100, types: [] });
    for (const event of page.events) {
      if (!('record' in event.payload)) continue;
      const { record } = event.payload;
      events.push({ id: event.id, change: `${record.id}@${versionOf(record)}` });
    }
    // A reader stopped at a hole makes no progress: what is missing is then counted as lost.
    if (!page.more || page.next.id === after.id) return events;
    after = page.next;
  }
}

async function runConfiguration(
  direct: Db,
  target: string,
  configuration: (typeof configurations)[number] | typeof WARM_UP,
  tag: string,
): Promise<ContentionRun> {
  const { owners: ownerCount, writers } = configuration;
  const seconds = 'seconds' in configuration ? configuration.seconds : SECONDS;
  const shape = 'own' in configuration || ownerCount > 1 ? 'own owners' : 'one owner';
  const owners = Array.from({ length: ownerCount }, (_, index) => `bench-contention-${tag}-${index + 1}`);
  // Stored before the clock, straight to DynamoDB Local: their events are the feed's first ones.
  const seeded = await Promise.all(
    owners.map(async (owner) => {
      const items: SpaceRecord[] = [];
      for (let n = 1; n <= SPACES_PER_OWNER; n++)
        items.push((await storeSpace(direct, owner, { name: `Seed ${n}`, color: n })).result);
      return items;
    }),
  );
  const harness = await startHarness({ target, ...FAITHFUL });
  const background = await startBackground(harness.endpoint, tag);
  let result: FleetResult;
  try {
    const plan: FleetPlan = {
      writers,
      owners,
      spaces: seeded.map((items) => items.map((item) => item.id)),
      seconds,
    };
    result = await runSection<FleetResult>('contention.ts', {
      DYNAMODB_ENDPOINT: harness.endpoint,
      BENCH_CONTENTION_FLEET: JSON.stringify(plan),
    });
  } finally {
    await background.stop();
    await harness.stop();
  }
  const stats = { ...harness.stats };

  const checks = await Promise.all(
    owners.map(async (owner, index) => {
      const [events, { head }] = await Promise.all([readFeed(direct, owner), readFeedHead(direct, owner)]);
      // Each change once: an update that changes nothing (the colour it already had) answers the version another
      // write made, and writes no event of its own.
      const writes = [
        ...new Set([
          ...(seeded[index] ?? []).map(changeOf),
          ...result.writes.filter((write) => write.owner === index).map((write) => write.change),
        ]),
      ];
      return { ...checkFeed(events, writes), headMatches: head === events.length };
    }),
  );
  const feed = { owners: ownerCount, events: 0, expected: 0, gaps: 0, lost: 0, duplicated: 0, gapless: true };
  for (const check of checks) {
    feed.events += check.events;
    feed.expected += check.expected;
    feed.gaps += check.gaps;
    feed.lost += check.lost;
    feed.duplicated += check.duplicated;
    feed.gapless &&= check.gapless;
  }

  const measured = result.writes.filter((write) => write.measured);
  const latencies = measured.map((write) => write.ms);
  const inWindow = measured.filter((write) => write.at <= result.windowMs).length;
  const requests = measured.length + result.contended + result.errors.length;
  const commitsPerSecond = inWindow / (result.windowMs / 1000);
  return {
    shape,
    writers,
    owners: ownerCount,
    seconds: result.windowMs / 1000,
    requests,
    commits: measured.length,
    stores: measured.filter((write) => write.stored).length,
    commitsAfter: result.writes.length - measured.length,
    commitsPerSecond: round(commitsPerSecond, 1),
    commitsPerSecondPerOwner: round(commitsPerSecond / ownerCount, 1),
    latencyMs: {
      p50: round(percentile(latencies, 50), 1),
      p99: round(percentile(latencies, 99), 1),
      max: round(Math.max(...latencies), 1),
    },
    contended: result.contended,
    contendedAfter: result.contendedAfter,
    rate503: round(requests === 0 ? 0 : (100 * result.contended) / requests, 2),
    errors: result.errors.length,
    errorSamples: [...new Set(result.errors)].slice(0, 5),
    harness: stats,
    feed: { ...feed, headsMatch: checks.every((check) => check.headMatches) },
    background: { pollMs: BACKGROUND_POLL_MS, calls: background.calls },
  };
}

const pad = (cells: (string | number)[], widths: number[]) =>
  cells.map((cell, index) => String(cell).padStart(widths[index] ?? 0)).join('  ');

/** The section's summary on the console: one line per configuration. */
function summaryTable(runs: ContentionRun[]): string {
  const head = [
    'configuration',
    'writes/25 s',
    'commits/s',
    'per owner',
    'p50 ms',
    'p99 ms',
    '503 %',
    'cancelled',
    'events',
    'lost',
    'dup',
  ];
  const rows = runs.map((run) => [
    `${run.writers} writer${run.writers === 1 ? '' : 's'}, ${run.shape === 'one owner' ? 'one owner' : `${run.owners} own owner${run.owners === 1 ? '' : 's'}`}`,
    Math.round(run.commitsPerSecond * 25),
    run.commitsPerSecond,
    run.commitsPerSecondPerOwner,
    run.latencyMs.p50,
    run.latencyMs.p99,
    run.rate503,
    run.harness.conflictsInjected + run.harness.conflictsRandom,
    run.feed.events,
    run.feed.lost,
    run.feed.duplicated,
  ]);
  const widths = head.map((_, index) => Math.max(...[head, ...rows].map((row) => String(row[index]).length)));
  return [pad(head, widths), ...rows.map((row) => pad(row, widths))].join('\n');
}

async function main() {
  const fleetPlan = process.env.BENCH_CONTENTION_FLEET;
  if (fleetPlan) {
    writeResult(await fleet(JSON.parse(fleetPlan) as FleetPlan));
    return;
  }
  const started = performance.now();
  const loadAverage = loadavg().map((value) => round(value, 2));
  const config = loadConfig(process.env);
  const target = config.dynamodbEndpoint;
  if (!target) throw new Error('The contention section needs DYNAMODB_ENDPOINT (DynamoDB Local, behind the harness)');
  const direct = createDb(config);
  const runId = Date.now().toString(36);
  const runs: ContentionRun[] = [];
  try {
    progress(`contention: warm-up, ${WARM_UP.writers} writers over ${WARM_UP.owners} owners, ${WARM_UP.seconds} s`);
    const warmUp = await runConfiguration(direct, target, WARM_UP, `${runId}-0`);
    if (warmUp.errors > 0) throw new Error(`Warm-up writes failed: ${warmUp.errorSamples.join('; ')}`);
    for (const [index, configuration] of configurations.entries()) {
      const label = `${configuration.writers} writer(s) over ${configuration.owners} owner(s)`;
      progress(`contention: ${label}, ${SECONDS} s`);
      const run = await runConfiguration(direct, target, configuration, `${runId}-${index + 1}`);
      if (run.errors > 0) progress(`  ${run.errors} writes failed otherwise than 503: ${run.errorSamples.join('; ')}`);
      runs.push(run);
    }
  } finally {
    direct.client.destroy();
  }
  process.stderr.write(`\n${summaryTable(runs)}\n\n`);
  const perKeyPerMinute = rateLimits.prod.perKeyPerMinute;
  const result: ContentionSection = {
    secondsPerRun: SECONDS,
    warmUp: { writers: WARM_UP.writers, owners: WARM_UP.owners, seconds: WARM_UP.seconds },
    spacesPerOwner: SPACES_PER_OWNER,
    storeShare: STORE_SHARE,
    settings: FAITHFUL,
    writeBudgetMs: WRITE_BUDGET_MS,
    waf: { perKeyPerMinute, perKeyPerSecond: perKeyPerMinute / RATE_LIMIT_WINDOW_SECONDS },
    target: TARGET,
    loadAverage,
    durationSeconds: round((performance.now() - started) / 1000, 1),
    runs,
  };
  writeResult(result);
}

await main();
