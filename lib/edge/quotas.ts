/**
 * The quotas the edge grows into, and what it uses of them now, published as CloudWatch metrics through the
 * embedded metric format (one JSON line on standard output, which Lambda's log agent sends to CloudWatch Logs,
 * where the metrics are extracted: "Using the embedded metric format with Lambda", CloudWatch User Guide). The
 * sweep measures and publishes them every run; `infra/constructs/edge-quotas.ts` alarms at 80 % of each.
 */
import type { EdgeCertificates, ListableEdgeStore } from './ports.ts';

/**
 * The defaults (all adjustable; a stage that had one raised says so in its settings, `edge.quotas`):
 * - distribution tenants per account: 10,000 (CloudFront Developer Guide, "Quotas", multi-tenant distributions);
 * - ACM certificates per account: 2,500 at a time, expired, failed and pending ones included ("Quotas", ACM
 *   User Guide; it also allows 5,000 issued a year, which nothing can measure before it is hit);
 * - bytes per key value store: 5 MB (CloudFront Developer Guide, "Quotas on key value stores"), taken as
 *   5 × 1,024 × 1,024 as the local CloudFront does.
 */
export const EDGE_QUOTAS = {
  tenantsPerAccount: 10_000,
  certificatesPerAccount: 2_500,
  storeBytes: 5 * 1024 * 1024,
} as const;

/** Where the edge's metrics are: the namespace, and their names (each with the stage as a dimension). */
export const EDGE_METRICS = {
  namespace: 'DomainsSpaces/Edge',
  /** The stage's keys in all its stores: every served host has a tenant, and a swept one may still have one. */
  tenants: 'Tenants',
  /** Every ACM certificate in the account (us-east-1), in any state. */
  certificates: 'Certificates',
  /** One store's size as its quota counts it (dimension `Shard` too). */
  storeBytes: 'StoreBytes',
  /** One store's keys: the hosts on that shard, served or swept within the hour (dimension `Shard` too). */
  shardHosts: 'ShardHosts',
} as const;

export type EdgeUsage = {
  shards: { keys: number; bytes: number }[];
  /** Undefined when not measured (no ACM locally). */
  certificates?: number;
};

/** What the edge uses now: each shard's store, and the account's certificates. */
export async function measureEdge(stores: readonly ListableEdgeStore[], certificates?: EdgeCertificates) {
  const shards = await Promise.all(stores.map(async (store) => (await store.usage?.()) ?? { keys: 0, bytes: 0 }));
  const counted = await certificates?.count?.();
  return { shards, ...(counted === undefined ? {} : { certificates: counted }) } satisfies EdgeUsage;
}

/** The embedded-metric-format documents of one measurement: one for the stage, one per shard. */
export function usageMetrics(stage: string, usage: EdgeUsage, at: number): Record<string, unknown>[] {
  const { namespace } = EDGE_METRICS;
  const document = (dimensions: Record<string, string>, values: Record<string, number>) => ({
    _aws: {
      Timestamp: at,
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: [Object.keys(dimensions)],
          Metrics: Object.keys(values).map((name) => ({ Name: name, Unit: name === 'StoreBytes' ? 'Bytes' : 'Count' })),
        },
      ],
    },
    ...dimensions,
    ...values,
  });
  const tenants = usage.shards.reduce((sum, shard) => sum + shard.keys, 0);
  return [
    document(
      { Stage: stage },
      {
        [EDGE_METRICS.tenants]: tenants,
        ...(usage.certificates === undefined ? {} : { [EDGE_METRICS.certificates]: usage.certificates }),
      },
    ),
    ...usage.shards.map((shard, index) =>
      document(
        { Stage: stage, Shard: String(index) },
        { [EDGE_METRICS.storeBytes]: shard.bytes, [EDGE_METRICS.shardHosts]: shard.keys },
      ),
    ),
  ];
}
