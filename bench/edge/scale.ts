/**
 * Section 10, the edge at full scale: `DOMAINS` domains (100,000) activated through the local CloudFront with
 * AWS's quotas (5 MB a store; tenants and certificates per account raised as docs/deployment.md says to) and
 * every call taking 20–40 ms, in bursts of `BURST` (10,000) whose CNAMEs are published at once, their events
 * (and repeats) delivered by `CONCURRENCY` concurrent sync environments with Lambda's asynchronous retries
 * (test/support/edge-scale.ts, as the small-scale test runs them), over as many shards as `hostsPerShard` asks.
 * Then one full sweep over every store, after a share of the domains was deleted, invocation by invocation as
 * the schedule runs it, each with its 60 s budget.
 *
 * Runs on its own in-memory DynamoDB Local (a 100,000-domain table need not be kept). Reports, per burst, the
 * time from the CNAMEs to each domain's first serving; store writes per second per shard; conflicts and
 * throttles met; the process's peak memory; the sweep's invocations and time.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { ACMClient } from '@aws-sdk/client-acm';
import { percentile, progress, quick, round, writeResult } from '#bench/support.ts';
import { cloudFrontSweepEdge, create as createSweep } from '#functions/edge/sweep.ts';
import { ensureTable, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { stages } from '#infra/stages.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { destroyDomain } from '#lib/domains/data/domains.ts';
import { parseEdgeRecord, TOMBSTONE_TTL_MS } from '#lib/edge/rules/record.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import type { SweepConfig } from '#lib/edge/sweep-settings.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { cloudFrontHarness, TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { startDnsServer } from '#test/support/dns-server.ts';
import { deliverEvents, type ScaleDomain, seedActiveDomains, syncEventFor } from '#test/support/edge-scale.ts';

const DOMAINS = Number(process.env.EDGE_BENCH_DOMAINS ?? (quick ? 2_000 : 100_000));
const BURST = Math.min(Number(process.env.EDGE_BENCH_BURST ?? 10_000), DOMAINS);
const CONCURRENCY = Number(process.env.EDGE_BENCH_CONCURRENCY ?? 24);
/** A fifth of the domains get a second event (an update) during their burst, as a re-check or an edit would. */
const REPEAT_SHARE = 0.2;
/** Deleted before the sweep, so that it has tombstones, tenants and certificates to delete. */
const DELETE_SHARE = 0.01;
/**
 * The control plane's sustained rate, calls/s (`EDGE_BENCH_CONTROL_RATE`; none: unlimited). AWS documents no
 * request rate for CloudFront's API (docs/performance.md, section 10).
 */
const CONTROL_RATE = process.env.EDGE_BENCH_CONTROL_RATE ? Number(process.env.EDGE_BENCH_CONTROL_RATE) : undefined;
const LATENCY_MS = { min: 20, max: 40 };
const HOSTS_PER_SHARD = stages.prod.edge.hostsPerShard;

export type Spread = { median: number; p95: number; max: number };
const spread = (values: readonly number[]): Spread => ({
  median: round(percentile(values, 50), 1),
  p95: round(percentile(values, 95), 1),
  max: round(Math.max(...values), 1),
});

export type ScaleBurst = {
  domains: number;
  events: number;
  /** Domains served at the burst's end. */
  served: number;
  /** From the burst's CNAMEs published to each domain's first serving (store entry and tenant), seconds. */
  servedSeconds: Spread;
  durationSeconds: number;
  failedInvocations: number;
  deadLetters: number;
};

export type EdgeScaleSection = {
  node: string;
  domains: number;
  burst: number;
  concurrency: number;
  shards: number;
  hostsPerShard: number;
  latencyMs: { min: number; max: number };
  controlPlaneRate: number | null;
  quotas: { storeBytes: number; tenants: number; certificates: number };
  bursts: ScaleBurst[];
  served: number;
  failedInvocations: number;
  deadLetters: number;
  /** Hosts each shard's store holds, and its bytes, at the end. */
  perShard: { hosts: number; bytes: number; updateKeys: number; keysPerSecond: number }[];
  writer: { batches: number; keys: number; conflicts: number; waits: number; reads: number; retakes: number };
  /** CloudFront calls answered with an error, by `operation:code`, and every control-plane call per domain. */
  errors: Record<string, number>;
  controlPlaneCallsPerDomain: number;
  /** KeyValueStore calls per domain, and DynamoDB calls per domain by command, over the bursts. */
  storeCallsPerDomain: number;
  dynamoCallsPerDomain: Record<string, number>;
  throttles: number;
  peakRssMb: number;
  peakHeapMb: number;
  sweep: { invocations: number; seconds: number; pages: number; swept: number; certificates: number; keys: number };
  loadAverage: number[];
  durationSeconds: number;
};

const CONTROL_OPERATIONS = new Set([
  'GetDistributionTenantByDomain',
  'CreateDistributionTenant',
  'UpdateDistributionTenant',
  'DeleteDistributionTenant',
  'GetManagedCertificateDetails',
  'GetDistributionTenant',
  'ListDistributionTenants',
]);

const STORE_OPERATIONS = new Set(['GetKey', 'PutKey', 'DeleteKey', 'UpdateKeys', 'ListKeys', 'DescribeKeyValueStore']);

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
    ...(CONTROL_RATE === undefined ? {} : { controlPlaneRate: CONTROL_RATE }),
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
    const tableName = 'bench-edge-scale';
    await ensureTable(dynamo.endpoint, tableName);
    const base = loadConfig({
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: tableName,
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      AWS_REGION: 'local',
      EDGE_HOSTNAME: cf.connectionGroup.routingEndpoint,
      DNS_RESOLVER: dns.address,
    });
    const db = createDb(base);
    // Every DynamoDB call the syncs make (they share this client), by command.
    const dynamoCalls = new Map<string, number>();
    db.client.middlewareStack.add(
      (next, context) => (args) => {
        const name = String(context.commandName ?? 'unknown');
        dynamoCalls.set(name, (dynamoCalls.get(name) ?? 0) + 1);
        return next(args);
      },
      { step: 'initialize', name: 'benchCallCount' },
    );
    const prefix = 'domains-spaces-bench';
    const shards = cf.shards.map((shard) => ({ kvsArn: shard.store.arn, distributionId: shard.distribution.id }));
    const config: EdgeConfig = {
      ...base,
      edgeHostname: cf.connectionGroup.routingEndpoint,
      edgeKvsArn: cf.store.arn,
      edgeDistributionId: cf.distribution.id,
      edgeShards: shards,
      edgeShardCapacity: HOSTS_PER_SHARD,
      edgeConnectionGroupId: cf.connectionGroup.id,
      edgeTenantPrefix: prefix,
    };
    const served = (host: string) =>
      cf.cloudFront.servingTenant(host) !== null &&
      cf.shards.some((shard) => parseEdgeRecord(cf.cloudFront.kvsValue(shard.store.arn, host))?.s === 'active');

    const bursts: ScaleBurst[] = [];
    const all: ScaleDomain[] = [];
    const writer = { batches: 0, keys: 0, conflicts: 0, waits: 0, reads: 0, retakes: 0 };
    let failedInvocations = 0;
    let deadLetters = 0;
    let writingMs = 0;
    for (let burst = 0; all.length < DOMAINS; burst++) {
      const size = Math.min(BURST, DOMAINS - all.length);
      // Those the sweep's share deletes were stored through the API, so that they can be deleted through it.
      const domains = await seedActiveDomains(db, cf, size, `b${burst}`, {
        throughApi: Math.ceil(size * DELETE_SHARE),
      });
      all.push(...domains);
      const repeats = domains.slice(0, Math.floor(size * REPEAT_SHARE));
      const events = [
        ...domains.map((domain) => syncEventFor(domain.owner, domain.name)),
        ...repeats.map((domain) => syncEventFor(domain.owner, domain.name, 'domain.updated')),
      ];
      const at = Date.now();
      const servedAt = new Map<string, number>();
      const delivery = await deliverEvents(db, cf, events, config, {
        concurrency: CONCURRENCY,
        settled: (host) => {
          if (!servedAt.has(host) && served(host)) servedAt.set(host, Date.now() - at);
        },
      });
      const durationMs = Date.now() - at;
      writingMs += durationMs;
      for (const [key, value] of Object.entries(delivery.stats)) writer[key as keyof typeof writer] += value;
      failedInvocations += delivery.failures.length;
      deadLetters += delivery.deadLetters.length;
      const times = [...servedAt.values()].map((ms) => ms / 1000);
      bursts.push({
        domains: size,
        events: events.length,
        served: domains.filter((domain) => served(domain.name)).length,
        servedSeconds: spread(times.length > 0 ? times : [Number.NaN]),
        durationSeconds: round(durationMs / 1000, 1),
        failedInvocations: delivery.failures.length,
        deadLetters: delivery.deadLetters.length,
      });
      progress(
        `edge scale: burst ${burst + 1}: ${size} domains, ${servedAt.size} served in ${round(durationMs / 1000, 1)} s ` +
          `(p95 ${bursts.at(-1)?.servedSeconds.p95} s), ${delivery.failures.length} failed, ` +
          `${delivery.deadLetters.length} dead letters; ${all.length} in all`,
      );
      if (delivery.failures.length > 0) progress(`  first failure: ${delivery.failures[0]}`);
    }
    const counts = cf.cloudFront.callCounts();
    const dynamoPerDomain = Object.fromEntries(
      [...dynamoCalls].map(([name, n]) => [name.replace(/Command$/, ''), round(n / all.length, 2)]),
    );
    const storeCalls = [...counts]
      .filter(([key]) => STORE_OPERATIONS.has(key.split(/[:@]/)[0] ?? '') && !key.includes('@'))
      .reduce((sum, [, n]) => sum + n, 0);
    const perShard = cf.shards.map((shard) => {
      const updateKeys = counts.get(`UpdateKeys@${shard.store.arn}`) ?? 0;
      const hosts = all.filter((domain) => cf.cloudFront.kvsValue(shard.store.arn, domain.name) !== null).length;
      return { hosts, bytes: 0, updateKeys, keysPerSecond: round(hosts / (writingMs / 1000), 1) };
    });
    const errors = Object.fromEntries([...counts].filter(([key]) => key.includes(':')));
    const controlCalls = [...counts]
      .filter(([key]) => CONTROL_OPERATIONS.has(key.split(':')[0] ?? ''))
      .reduce((sum, [, n]) => sum + n, 0);
    const throttles = [...counts].filter(([key]) => /:Throttling/.test(key)).reduce((sum, [, n]) => sum + n, 0);
    const servedCount = all.filter((domain) => served(domain.name)).length;

    // The sweep: a share deleted (their tombstones written and tenants disabled by the sync), then one full pass
    // with the clock past the tombstones' age, run after run as the schedule would, each with its budget.
    const deleted = bursts.flatMap((burst, at) =>
      all.slice(at * BURST, at * BURST + Math.ceil(burst.domains * DELETE_SHARE)),
    );
    for (const domain of deleted) await destroyDomain(db, domain.owner, domain.id);
    const gone = await deliverEvents(
      db,
      cf,
      deleted.map((domain) => syncEventFor(domain.owner, domain.name, 'domain.deleted')),
      config,
      { concurrency: CONCURRENCY },
    );
    failedInvocations += gone.failures.length;
    deadLetters += gone.deadLetters.length;
    cf.cloudFront.deployPending();
    const sweepConfig: SweepConfig = {
      ...base,
      edgeShards: shards,
      edgeConnectionGroupId: cf.connectionGroup.id,
      edgeTenantPrefix: prefix,
    };
    const acm = new ACMClient({
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      endpoint: cf.cloudFront.endpoint,
      maxAttempts: 4,
    });
    const later = () => Date.now() + TOMBSTONE_TTL_MS + 60_000;
    const sweepEdge = {
      ...cloudFrontSweepEdge(sweepConfig, { ...cf.clientsWith({ maxAttempts: 4 }), acm }),
      now: later,
    };
    const sweep = createSweep(sweepConfig, db, sweepEdge, { publish: () => {} });
    const sweepStarted = Date.now();
    const sweepTotals = { invocations: 0, pages: 0, swept: 0, certificates: 0 };
    for (;;) {
      const run = await sweep();
      sweepTotals.invocations++;
      sweepTotals.pages += run.pages;
      sweepTotals.swept += run.swept;
      sweepTotals.certificates += run.certificates;
      progress(`edge scale: sweep run ${sweepTotals.invocations}: ${run.pages} pages, ${run.swept} swept`);
      if (run.done || run.idle) break;
    }
    acm.destroy();
    const section: EdgeScaleSection = {
      node: process.version,
      domains: DOMAINS,
      burst: BURST,
      concurrency: CONCURRENCY,
      shards: shardCount,
      hostsPerShard: HOSTS_PER_SHARD,
      latencyMs: LATENCY_MS,
      controlPlaneRate: CONTROL_RATE ?? null,
      quotas,
      bursts,
      served: servedCount,
      failedInvocations,
      deadLetters,
      perShard,
      writer,
      errors,
      controlPlaneCallsPerDomain: round(controlCalls / all.length, 2),
      storeCallsPerDomain: round(storeCalls / all.length, 2),
      dynamoCallsPerDomain: dynamoPerDomain,
      throttles,
      peakRssMb: round(peakRss / 2 ** 20, 1),
      peakHeapMb: round(peakHeap / 2 ** 20, 1),
      sweep: {
        ...sweepTotals,
        seconds: round((Date.now() - sweepStarted) / 1000, 1),
        keys: all.length,
      },
      loadAverage,
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
