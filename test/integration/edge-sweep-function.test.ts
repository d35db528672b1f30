/**
 * The edge sweep function (functions/edge/sweep.ts) as Lambda runs it, against DynamoDB Local (its cursor) and
 * the local CloudFront with CloudFront's and ACM's rules (test/support/cloudfront-harness.ts), through the SDK
 * clients and the edge it builds from its settings (`cloudFrontSweepEdge`): a deleted domain's tombstone,
 * disabled tenant and the tenant's certificate (which CloudFront leaves in ACM) are deleted once older than any
 * sync; a store larger than one run's budget is swept over several runs, each going on from the cursor the last
 * kept; every run publishes the edge's quota usage as embedded-metric-format lines.
 */
import { randomUUID } from 'node:crypto';
import { ACMClient } from '@aws-sdk/client-acm';
import { EntityNotFound, GetDistributionTenantByDomainCommand } from '@aws-sdk/client-cloudfront';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudFrontSweepEdge, create as createSweep } from '#functions/edge/sweep.ts';
import { cloudFrontEdge, create as createSync, type SyncEvent } from '#functions/edge/sync.ts';
import { destroyDomain, storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import { cloudFrontStore } from '#lib/edge/cloudfront.ts';
import { EDGE_METRICS } from '#lib/edge/quotas.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/rules/entry.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import type { SweepConfig } from '#lib/edge/sweep-settings.ts';
import { type CloudFrontHarness, cloudFrontHarness, TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';

let dns: DnsTestServer;
let cf: CloudFrontHarness;
let acm: ACMClient;
let syncConfig: EdgeConfig;
let sweepConfig: SweepConfig;

beforeAll(async () => {
  dns = await startDnsServer();
  cf = await cloudFrontHarness({ dns });
  acm = new ACMClient({
    region: 'us-east-1',
    credentials: TEST_CREDENTIALS,
    endpoint: cf.cloudFront.endpoint,
    maxAttempts: 1,
  });
  const common = configWithDns(dns);
  syncConfig = {
    ...common,
    edgeHostname: cf.connectionGroup.routingEndpoint,
    edgeKvsArn: cf.store.arn,
    edgeDistributionId: cf.distribution.id,
    edgeConnectionGroupId: cf.connectionGroup.id,
    edgeTenantPrefix: 'domains-spaces-test',
  };
  // The sweep's settings as the stack sets them: the stage's shards (one here), its group and prefix.
  sweepConfig = {
    ...common,
    edgeShards: [{ kvsArn: cf.store.arn, distributionId: cf.distribution.id }],
    edgeConnectionGroupId: cf.connectionGroup.id,
    edgeTenantPrefix: 'domains-spaces-test',
  };
});
afterAll(async () => {
  acm?.destroy();
  await cf?.close();
  await dns?.close();
});

/** The sweep as Lambda builds it, over the harness's clients; `now` shifts its clock; the metrics it prints. */
function sweepFunction(now?: () => number, budgetMs?: number) {
  const printed: Record<string, unknown>[] = [];
  const edge = cloudFrontSweepEdge(sweepConfig, { ...cf.clients, acm });
  const sweep = createSweep(sweepConfig, db, now ? { ...edge, now } : edge, {
    publish: (line) => printed.push(JSON.parse(line)),
    ...(budgetMs === undefined ? {} : { budgetMs }),
  });
  return { sweep, printed };
}

const eventFor = (owner: string, name: string, type = 'domain.updated'): SyncEvent =>
  ({ 'detail-type': type, detail: { id: '000000000001', type, owner, data: { name } } }) as unknown as SyncEvent;

describe('the edge sweep function', () => {
  it("deletes a deleted domain's tombstone, tenant and certificate once older than any sync, and publishes usage", async () => {
    // Prepare: served (tenant and certificate issued), deleted, its disabling deployed.
    const owner = `owner-${randomUUID()}`;
    const name = `sweep-${randomUUID().slice(0, 8)}.example`;
    const stored = (await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null })).result;
    const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
    await verifyDomain(db, found, owner, stored.id);
    cf.pointAt(name);
    const sync = createSync(syncConfig, db, cloudFrontEdge(syncConfig, cf.clients));
    await sync(eventFor(owner, name, 'domain.verified'));
    cf.cloudFront.issueCertificate(name);
    cf.cloudFront.deployPending();
    const certificate = cf.cloudFront.certificates().find((each) => each.domainName === name);
    await destroyDomain(db, owner, stored.id);
    await sync(eventFor(owner, name, 'domain.deleted'));
    cf.cloudFront.deployPending();
    // Act: now (the tombstone is young), then past its TTL.
    const soon = sweepFunction();
    const first = await soon.sweep();
    const later = sweepFunction(() => Date.now() + TOMBSTONE_TTL_MS + 60_000);
    const swept = await later.sweep();
    // Assess
    expect(certificate).toMatchObject({ status: 'ISSUED', inUse: true });
    expect(first).toMatchObject({ swept: 0, done: true });
    expect(swept).toMatchObject({ swept: 1, certificates: 1, done: true });
    expect(cf.cloudFront.kvsValue(cf.store.arn, name)).toBeNull();
    const lookup = cf.clients.cloudFront.send(new GetDistributionTenantByDomainCommand({ Domain: name }));
    await expect(lookup).rejects.toBeInstanceOf(EntityNotFound);
    expect(cf.cloudFront.certificates().map((each) => each.arn)).not.toContain(certificate?.arn);
    // The usage, as CloudWatch reads it from the log: the stage's tenants and certificates, the shard's store.
    const [stageMetrics, shardMetrics] = soon.printed;
    expect(stageMetrics).toMatchObject({
      _aws: { CloudWatchMetrics: [{ Namespace: EDGE_METRICS.namespace, Dimensions: [['Stage']] }] },
      Stage: 'domains-spaces-test',
      [EDGE_METRICS.tenants]: 1,
      [EDGE_METRICS.certificates]: 1,
    });
    expect(shardMetrics).toMatchObject({ Stage: 'domains-spaces-test', Shard: '0', [EDGE_METRICS.shardHosts]: 1 });
    expect(shardMetrics?.[EDGE_METRICS.storeBytes]).toBeGreaterThan(name.length);
  });

  it('sweeps a store larger than one run can, run after run from its cursor, until the pass is done', async () => {
    // Prepare: 130 old tombstones (3 pages of ListKeys), written straight to the store.
    const store = cloudFrontStore(cf.clients.keyValueStore, cf.store.arn);
    const t = Date.now() - 2 * TOMBSTONE_TTL_MS;
    for (let i = 0; i < 130; i++) {
      const host = `old-${String(i).padStart(3, '0')}.example`;
      await store.put(host, { s: 'none', t }, (await store.read(host)).etag);
    }
    const listsBefore = cf.cloudFront.calls.filter((call) => call.operation === 'ListKeys').length;
    // Act: runs with a budget of 20 ms (a few hosts each), three hours on (past the last pass, which started an hour on).
    const runs = [];
    for (let run = 0; run < 200; run++) {
      const result = await sweepFunction(() => Date.now() + 3 * TOMBSTONE_TTL_MS, 20).sweep();
      runs.push(result);
      if (result.done) break;
    }
    // Assess: many runs, each page listed with at most 50 keys, and every tombstone gone
    expect(runs.length).toBeGreaterThan(3);
    expect(runs.at(-1)).toMatchObject({ done: true });
    expect(runs.reduce((sum, run) => sum + run.swept, 0)).toBe(130);
    const lists = cf.cloudFront.calls.filter((call) => call.operation === 'ListKeys').slice(listsBefore);
    expect(lists.every((call) => call.input.MaxResults === 50)).toBe(true);
    expect((await store.usage?.())?.keys).toBe(0);
  });
});
