/**
 * Section 10, the edge at full scale, through the local CloudFront with AWS's quotas (5 MB a store; tenants and
 * certificates per account raised as docs/deployment.md says to) and every call taking 20–40 ms:
 *  - `DOMAINS` domains (100,000) activated in bursts of `BURST` (10,000) whose CNAMEs are published at once, their
 *    events (and repeats) delivered by `CONCURRENCY` concurrent sync environments with Lambda's asynchronous
 *    retries (test/support/edge-scale.ts, as the small-scale test runs them), over as many shards as
 *    `hostsPerShard` asks; then one full sweep over every store after a share of the domains was deleted, run
 *    after run as the schedule invokes it, each with its 60 s budget;
 *  - a burst of `THROTTLED_DOMAINS` against a control plane throttling at `THROTTLED_RATE` calls a second, then
 *    the re-check's events for any domain it left `provisioning`.
 * Runs on its own in-memory DynamoDB Local (a 100,000-domain table need not be kept).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ACMClient } from '@aws-sdk/client-acm';
import { percentile, progress, quick, round, writeResult } from '#bench/support.ts';
import { cloudFrontSweepEdge, create as createSweep } from '#functions/edge/sweep.ts';
import { ensureTable, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { stages } from '#infra/stages.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { destroyDomain, showDomain } from '#lib/domains/data/domains.ts';
import { parseEdgeEntry, TOMBSTONE_TTL_MS } from '#lib/edge/rules/entry.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import type { SweepConfig } from '#lib/edge/sweep-settings.ts';
import { type WriterStats, writerStats } from '#lib/edge/writer.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { type CloudFrontHarness, cloudFrontHarness, TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { deliverEvents, type ScaleDomain, seedActiveDomains, syncEventFor } from '#test/support/edge-scale.ts';

const DOMAINS = Number(process.env.EDGE_BENCH_DOMAINS ?? (quick ? 2_000 : 100_000));
const BURST = Math.min(Number(process.env.EDGE_BENCH_BURST ?? 10_000), DOMAINS);
const CONCURRENCY = Number(process.env.EDGE_BENCH_CONCURRENCY ?? 64);
const THROTTLED_DOMAINS = Number(process.env.EDGE_BENCH_THROTTLED_DOMAINS ?? (quick ? 300 : 2_000));
/** Calls a second the throttled control plane takes (AWS documents none: docs/performance.md, section 10). */
const THROTTLED_RATE = Number(process.env.EDGE_BENCH_THROTTLED_RATE ?? 40);
/** A fifth of the domains get a second event (an update) during their burst, as a re-check or an edit would. */
const REPEAT_SHARE = 0.2;
/** Deleted before the sweep, so that it has tombstones, tenants and certificates to delete. */
const DELETE_SHARE = 0.01;
const LATENCY_MS = { min: 20, max: 40 };
const HOSTS_PER_SHARD = stages.prod.edge.hostsPerShard;
const PREFIX = 'domains-spaces-bench';

export type Spread = { median: number; p95: number; max: number };
const spread = (values: readonly number[]): Spread =>
  values.length === 0
    ? { median: Number.NaN, p95: Number.NaN, max: Number.NaN }
    : {
        median: round(percentile(values, 50), 1),
        p95: round(percentile(values, 95), 1),
        max: round(Math.max(...values), 1),
      };

export type ScaleBurst = {
  domains: number;
  events: number;
  /** Domains served at the burst's end (store entry active and tenant serving), before the re-check's round. */
  served: number;
  /** What the domains not served then recorded (`serving`, and its failure), which the re-check looks at again. */
  leftAs: Record<string, number>;
  /** Served once the re-check sent the events of those left again (as it does within 5 minutes). */
  servedAfterRecheck: number;
  /** From the burst's CNAMEs published to each domain's first serving, seconds. */
  servedSeconds: Spread;
  durationSeconds: number;
  failedInvocations: number;
  deadLetters: number;
};

/** A burst against a throttling control plane: what the sync's wait left `provisioning`, the re-check serves. */
export type ThrottledRun = { domains: number; rate: number; burst: ScaleBurst; throttles: number };

export type EdgeScaleSection = {
  node: string;
  domains: number;
  burst: number;
  concurrency: number;
  shards: number;
  hostsPerShard: number;
  latencyMs: { min: number; max: number };
  quotas: { storeBytes: number; tenants: number; certificates: number };
  bursts: ScaleBurst[];
  served: number;
  failedInvocations: number;
  deadLetters: number;
  /** Each shard's hosts at the end, its successful UpdateKeys calls, and keys written a second of writing. */
  perShard: { hosts: number; updateKeys: number; keysPerSecond: number }[];
  writer: WriterStats;
  /** CloudFront calls answered with an error, by `operation:code`. */
  errors: Record<string, number>;
  controlPlaneCallsPerDomain: number;
  storeCallsPerDomain: number;
  dynamoCallsPerDomain: Record<string, number>;
  peakRssMb: number;
  peakHeapMb: number;
  sweep: { invocations: number; seconds: number; pages: number; swept: number; certificates: number; keys: number };
  throttled: ThrottledRun;
  loadAverage: number[];
  loadAverageAfter: number[];
  durationSeconds: number;
};

const CONTROL_OPERATIONS = new Set([
  'GetDistributionTenantByDomain',
  'CreateDistributionTenant',
  'UpdateDistributionTenant',
  'DeleteDistributionTenant',
  'GetManagedCertificateDetails',
]);
const STORE_OPERATIONS = new Set(['GetKey', 'PutKey', 'DeleteKey', 'UpdateKeys', 'ListKeys', 'DescribeKeyValueStore']);

/** A stage over a harness: its table (with every DynamoDB call counted), the sync's and the sweep's settings. */
async function stageOn(cf: CloudFrontHarness, dns: DnsTestServer, endpoint: string, tableName: string) {
  await ensureTable(endpoint, tableName);
  const base = loadConfig({
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: tableName,
    CURSOR_SECRET: randomBytes(32).toString('base64url'),
    AWS_REGION: 'local',
    EDGE_HOSTNAME: cf.connectionGroup.routingEndpoint,
    DNS_RESOLVER: dns.address,
  });
  const db = createDb(base);
  const dynamoCalls = new Map<string, number>();
  db.client.middlewareStack.add(
    (next, context) => (args) => {
      const name = String(context.commandName ?? 'unknown').replace(/Command$/, '');
      dynamoCalls.set(name, (dynamoCalls.get(name) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: 'benchCallCount' },
  );
  const shards = cf.shards.map((shard) => ({ kvsArn: shard.store.arn, distributionId: shard.distribution.id }));
  const config: EdgeConfig = {
    ...base,
    edgeHostname: cf.connectionGroup.routingEndpoint,
    edgeKvsArn: cf.store.arn,
    edgeDistributionId: cf.distribution.id,
    edgeShards: shards,
    edgeShardCapacity: HOSTS_PER_SHARD,
    edgeConnectionGroupId: cf.connectionGroup.id,
    edgeTenantPrefix: PREFIX,
  };
  const sweepConfig: SweepConfig = {
    ...base,
    edgeShards: shards,
    edgeConnectionGroupId: cf.connectionGroup.id,
    edgeTenantPrefix: PREFIX,
  };
  const served = (host: string) =>
    cf.cloudFront.servingTenant(host) !== null &&
    cf.shards.some((shard) => parseEdgeEntry(cf.cloudFront.kvsValue(shard.store.arn, host))?.s === 'active');
  return { db, config, sweepConfig, dynamoCalls, served };
}
type Stage = Awaited<ReturnType<typeof stageOn>>;

/** One burst: `size` domains verified with their CNAMEs published at once, and their events delivered. */
async function burstOf(cf: CloudFrontHarness, stage: Stage, size: number, tag: string, stats: WriterStats) {
  // Those the sweep's share deletes are stored through the API, so that they can be deleted through it.
  const domains = await seedActiveDomains(stage.db, cf, size, tag, { throughApi: Math.ceil(size * DELETE_SHARE) });
  const repeats = domains.slice(0, Math.floor(size * REPEAT_SHARE));
  const events = [
    ...domains.map((domain) => syncEventFor(domain.owner, domain.name)),
    ...repeats.map((domain) => syncEventFor(domain.owner, domain.name, 'domain.updated')),
  ];
  const at = Date.now();
  const servedAt = new Map<string, number>();
  const delivery = await deliverEvents(stage.db, cf, events, stage.config, {
    concurrency: CONCURRENCY,
    settled: (host) => {
      if (!servedAt.has(host) && stage.served(host)) servedAt.set(host, (Date.now() - at) / 1000);
    },
  });
  for (const [key, value] of Object.entries(delivery.stats)) stats[key as keyof WriterStats] += value;
  const durationSeconds = round((Date.now() - at) / 1000, 1);
  const servedTimes = [...servedAt.values()];
  // The re-check's round: a domain left waiting (its DNS lookup timed out on this loaded machine, say) or
  // provisioning is news to it, and it sends the domain's event again.
  const left = domains.filter((domain) => !stage.served(domain.name));
  const leftAs: Record<string, number> = {};
  for (const domain of left) {
    const shown = await showDomain(stage.db, domain.owner, domain.id);
    const state = shown.servingFailure ? `${shown.serving}: ${shown.servingFailure}` : String(shown.serving);
    leftAs[state] = (leftAs[state] ?? 0) + 1;
  }
  const recheck = await deliverEvents(
    stage.db,
    cf,
    left.map((domain) => syncEventFor(domain.owner, domain.name, 'domain.updated')),
    stage.config,
    { concurrency: CONCURRENCY },
  );
  const burst: ScaleBurst = {
    domains: size,
    events: events.length,
    served: servedTimes.length,
    leftAs,
    servedAfterRecheck: domains.filter((domain) => stage.served(domain.name)).length,
    servedSeconds: spread(servedTimes),
    durationSeconds,
    failedInvocations: delivery.failures.length + recheck.failures.length,
    deadLetters: delivery.deadLetters.length + recheck.deadLetters.length,
  };
  if (delivery.failures.length > 0) progress(`  first failure: ${delivery.failures[0]}`);
  return { domains, burst };
}

/** The sweep after `deleted` were deleted (tombstoned and disabled by their syncs), run after run until its pass ends. */
async function sweepAfter(cf: CloudFrontHarness, stage: Stage, deleted: readonly ScaleDomain[]) {
  for (const domain of deleted) await destroyDomain(stage.db, domain.owner, domain.id);
  const events = deleted.map((domain) => syncEventFor(domain.owner, domain.name, 'domain.deleted'));
  const gone = await deliverEvents(stage.db, cf, events, stage.config, { concurrency: CONCURRENCY });
  cf.cloudFront.deployPending();
  const acm = new ACMClient({
    region: 'us-east-1',
    credentials: TEST_CREDENTIALS,
    endpoint: cf.cloudFront.endpoint,
    maxAttempts: 4,
  });
  const clients = { ...cf.clientsWith({ maxAttempts: 4 }), acm };
  // The clock past the tombstones' age: every one of them is due.
  const later = () => Date.now() + TOMBSTONE_TTL_MS + 60_000;
  const edge = { ...cloudFrontSweepEdge(stage.sweepConfig, clients), now: later };
  const sweep = createSweep(stage.sweepConfig, stage.db, edge, { publish: () => {} });
  const started = Date.now();
  const totals = { invocations: 0, pages: 0, swept: 0, certificates: 0 };
  try {
    for (;;) {
      const run = await sweep();
      totals.invocations++;
      totals.pages += run.pages;
      totals.swept += run.swept;
      totals.certificates += run.certificates;
      progress(`edge scale: sweep run ${totals.invocations}: ${run.pages} pages, ${run.swept} swept`);
      if (run.done || run.idle) break;
    }
  } finally {
    acm.destroy();
  }
  return { ...totals, seconds: round((Date.now() - started) / 1000, 1), failures: gone.failures, gone };
}

const throttlesOf = (cf: CloudFrontHarness) =>
  [...cf.cloudFront.callCounts()].filter(([key]) => /:Throttling/.test(key)).reduce((sum, [, n]) => sum + n, 0);

/** A burst against a throttling control plane, then the re-check's events for what it left provisioning. */
async function throttledRun(dns: DnsTestServer, endpoint: string): Promise<ThrottledRun> {
  const cf = await cloudFrontHarness({
    dns,
    stage: 'throttled',
    shards: 1,
    latencyMs: LATENCY_MS,
    controlPlaneRate: THROTTLED_RATE,
    quotas: { tenants: THROTTLED_DOMAINS * 2, certificates: THROTTLED_DOMAINS * 2 },
    certificates: 'issue-at-once',
    deployment: 'at-once',
    verifySignatures: false,
    recordCalls: false,
  });
  try {
    const stage = await stageOn(cf, dns, endpoint, 'bench-edge-scale-throttled');
    const { burst } = await burstOf(cf, stage, THROTTLED_DOMAINS, 't', writerStats());
    progress(
      `edge scale: throttled at ${THROTTLED_RATE}/s: ${burst.served} served, left ${JSON.stringify(burst.leftAs)}`,
    );
    return { domains: THROTTLED_DOMAINS, rate: THROTTLED_RATE, burst, throttles: throttlesOf(cf) };
  } finally {
    await cf.close();
  }
}

async function main() {
  // The syncs' log lines (one per event, as on Lambda, where CloudWatch takes them) are not this bench's work.
  console.info = () => {};
  const started = Date.now();
  const loadAverage = loadavg().map((value) => round(value, 2));
  const shardCount = Math.max(1, Math.ceil(DOMAINS / HOSTS_PER_SHARD));
  const raised = Math.ceil(DOMAINS * 1.25);
  const quotas = { storeBytes: 5 * 1024 * 1024, tenants: raised, certificates: raised };
  const dynamo = await startDynamoDbLocal({});
  const dns = await startDnsServer();
  const cf = await cloudFrontHarness({
    dns,
    shards: shardCount,
    quotas,
    latencyMs: LATENCY_MS,
    certificates: 'issue-at-once',
    deployment: 'at-once',
    verifySignatures: false,
    recordCalls: false,
  });
  let peakRss = 0;
  let peakHeap = 0;
  const sampler = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage();
    peakRss = Math.max(peakRss, rss);
    peakHeap = Math.max(peakHeap, heapUsed);
  }, 500);
  try {
    const stage = await stageOn(cf, dns, dynamo.endpoint, 'bench-edge-scale');
    const bursts: ScaleBurst[] = [];
    const all: ScaleDomain[] = [];
    const deletable: ScaleDomain[] = [];
    const writer = writerStats();
    for (let at = 0; all.length < DOMAINS; at++) {
      const size = Math.min(BURST, DOMAINS - all.length);
      const { domains, burst } = await burstOf(cf, stage, size, `b${at}`, writer);
      all.push(...domains);
      deletable.push(...domains.slice(0, Math.ceil(size * DELETE_SHARE)));
      bursts.push(burst);
      progress(
        `edge scale: burst ${at + 1}: ${size} domains, ${burst.served} served in ${burst.durationSeconds} s ` +
          `(${burst.servedAfterRecheck} after the re-check's round; left ${JSON.stringify(burst.leftAs)}) ` +
          `(median ${burst.servedSeconds.median} s, p95 ${burst.servedSeconds.p95} s), ${burst.failedInvocations} ` +
          `failed, ${burst.deadLetters} dead letters; ${all.length} in all`,
      );
    }
    const writingSeconds = bursts.reduce((sum, burst) => sum + burst.durationSeconds, 0);
    const counts = cf.cloudFront.callCounts();
    const callsOf = (operations: Set<string>) =>
      [...counts]
        .filter(([key]) => !key.includes('@') && operations.has(key.split(':')[0] ?? ''))
        .reduce((sum, [, n]) => sum + n, 0);
    const perShard = cf.shards.map((shard) => {
      const hosts = all.filter((domain) => cf.cloudFront.kvsValue(shard.store.arn, domain.name) !== null).length;
      const updateKeys = counts.get(`UpdateKeys@${shard.store.arn}`) ?? 0;
      return { hosts, updateKeys, keysPerSecond: round(hosts / writingSeconds, 1) };
    });
    const errors = Object.fromEntries([...counts].filter(([key]) => key.includes(':') && !key.includes('@')));
    const dynamoCallsPerDomain = Object.fromEntries(
      [...stage.dynamoCalls].map(([name, n]) => [name, round(n / all.length, 2)]),
    );
    const served = all.filter((domain) => stage.served(domain.name)).length;
    const controlPlaneCallsPerDomain = round(callsOf(CONTROL_OPERATIONS) / all.length, 2);
    const storeCallsPerDomain = round(callsOf(STORE_OPERATIONS) / all.length, 2);
    const sweep = await sweepAfter(cf, stage, deletable);
    const throttled = await throttledRun(dns, dynamo.endpoint);
    const section: EdgeScaleSection = {
      node: process.version,
      domains: DOMAINS,
      burst: BURST,
      concurrency: CONCURRENCY,
      shards: shardCount,
      hostsPerShard: HOSTS_PER_SHARD,
      latencyMs: LATENCY_MS,
      quotas,
      bursts,
      served,
      failedInvocations: bursts.reduce((sum, burst) => sum + burst.failedInvocations, 0) + sweep.failures.length,
      deadLetters: bursts.reduce((sum, burst) => sum + burst.deadLetters, 0) + sweep.gone.deadLetters.length,
      perShard,
      writer,
      errors,
      controlPlaneCallsPerDomain,
      storeCallsPerDomain,
      dynamoCallsPerDomain,
      peakRssMb: round(peakRss / 2 ** 20, 1),
      peakHeapMb: round(peakHeap / 2 ** 20, 1),
      sweep: {
        invocations: sweep.invocations,
        seconds: sweep.seconds,
        pages: sweep.pages,
        swept: sweep.swept,
        certificates: sweep.certificates,
        keys: all.length,
      },
      throttled,
      loadAverage,
      loadAverageAfter: loadavg().map((value) => round(value, 2)),
      durationSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResult(section);
  } finally {
    clearInterval(sampler);
    await cf.close();
    await dns.close();
    await dynamo.stop();
  }
}

await main();
