/**
 * The edge sweep: EventBridge Scheduler invokes it every 5 minutes (`infra/constructs/edge-sweep.ts`). Each run
 * first publishes what the edge uses of its quotas (`lib/edge/quotas.ts`: keys and bytes per store, the ACM
 * certificates of the account), then goes on with the sweep's pass where the last run stopped
 * (`lib/edge/sweep.ts`, its cursor an item in the table): it deletes the tombstones, disabled tenants and their
 * certificates of hosts no longer served, every shard's store a page at a time, until its time budget is spent.
 * A pass starts at most once an hour. A failure throws: the schedule retries twice, then the run goes to the
 * edge sync's dead-letter queue (nothing to send again: the next run goes on from the cursor).
 */
import '@aws-sdk/signature-v4a';
import { createDb, type Db } from '#lib/data/dynamodb.ts';
import { ACMClient, acmCertificates, CLOUDFRONT_CERTIFICATE_REGION } from '#lib/edge/acm.ts';
import {
  CloudFrontClient,
  CloudFrontKeyValueStoreClient,
  cloudFrontStore,
  cloudFrontTenants,
} from '#lib/edge/cloudfront.ts';
import { edgeSweepCursor } from '#lib/edge/data/sweep-cursor.ts';
import type { EdgeCertificates } from '#lib/edge/ports.ts';
import { measureEdge, usageMetrics } from '#lib/edge/quotas.ts';
import { type SweepResult, type SweepShard, sweepEdge } from '#lib/edge/sweep.ts';
import { loadSweepConfig, SWEEP_BUDGET_MS, type SweepConfig, sweepClientSettings } from '#lib/edge/sweep-settings.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { log } from '#lib/platform/log.ts';

/** The clients the sweep reaches the edge through: CloudFront's, KeyValueStore's and ACM's (tests: the harness's). */
export type SweepClients = {
  cloudFront: CloudFrontClient;
  keyValueStore: CloudFrontKeyValueStoreClient;
  acm?: ACMClient;
};

/** What the sweep works on: every shard (its store, its distribution's tenants), and the certificates. */
export type SweepEdge = { shards: SweepShard[]; certificates?: EdgeCertificates; now?: () => number };

/** The stage's shards on CloudFront: shard i is store i with the tenants of distribution i. */
export function cloudFrontSweepEdge(config: SweepConfig, clients: SweepClients): SweepEdge {
  const shards = config.edgeShards.map(({ kvsArn, distributionId }) => ({
    store: cloudFrontStore(clients.keyValueStore, kvsArn),
    tenants: cloudFrontTenants(clients.cloudFront, {
      distributionIds: [distributionId],
      connectionGroupId: config.edgeConnectionGroupId,
      tenantPrefix: config.edgeTenantPrefix,
      // The sweep never creates a tenant.
      pointsAtEdge: async () => false,
    }),
  }));
  return { shards, ...(clients.acm ? { certificates: acmCertificates(clients.acm) } : {}) };
}

export type SweepRun = SweepResult;

export function create(
  config: SweepConfig,
  db: Db = createDb(config),
  edge: SweepEdge = cloudFrontSweepEdge(config, {
    cloudFront: new CloudFrontClient(sweepClientSettings),
    keyValueStore: new CloudFrontKeyValueStoreClient(sweepClientSettings),
    acm: new ACMClient({ ...sweepClientSettings, region: CLOUDFRONT_CERTIFICATE_REGION }),
  }),
  options: { budgetMs?: number; publish?: (line: string) => void } = {},
) {
  const publish = options.publish ?? ((line: string) => process.stdout.write(`${line}\n`));
  return async (): Promise<SweepRun> => {
    const now = edge.now ?? Date.now;
    const usage = await measureEdge(
      edge.shards.map((shard) => shard.store),
      edge.certificates,
    );
    for (const document of usageMetrics(config.edgeTenantPrefix, usage, now())) publish(JSON.stringify(document));
    const result = await sweepEdge({
      ...edge,
      cursor: edgeSweepCursor(db),
      budgetMs: options.budgetMs ?? SWEEP_BUDGET_MS,
    });
    log('info', 'Edge swept', { ...result, usage });
    return result;
  };
}

/** Its settings' loader, which `handler` binds at cold start (the stack's tests call it too). */
export const load = loadSweepConfig;

export const handler = atColdStart(create, loadSweepConfig);
