/**
 * The edge sync's settings: the shared ones (`lib/platform/config.ts`) and the stage's CloudFront resources, which only
 * the edge sync reads (so only its bundle carries them). Bound at its cold start, each required: a sync that
 * could not reach its store, distribution or connection group would fail every event.
 */
import * as v from 'valibot';
import type { Env } from '#lib/platform/cold-start.ts';
import { type Config, configOf, parseSettings, settingEntries } from '#lib/platform/config.ts';

const requiredText = v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'));

const edgeSettingsSchema = v.object(
  {
    ...settingEntries,
    /** The edge's CloudFront KeyValueStores (their ARNs), one per shard in shard order, comma-separated. */
    EDGE_KVS_ARN: requiredText,
    /**
     * The stage's multi-tenant CloudFront distributions, one per shard in the stores' order, comma-separated:
     * whose tenants the sync creates, disables and deletes.
     */
    EDGE_DISTRIBUTION_ID: requiredText,
    /** Hosts a shard takes at most (`DEFAULT_SHARD_CAPACITY` when absent). */
    EDGE_SHARD_CAPACITY: v.optional(v.pipe(v.string(), v.trim(), v.toNumber(), v.integer(), v.minValue(1))),
    /** The stage's connection group, whose routing endpoint served domains point at: its tenants' group. */
    EDGE_CONNECTION_GROUP_ID: requiredText,
    /** What the stage's tenant names start with (`domains-spaces-prod`), so stages in one account tell theirs apart. */
    EDGE_TENANT_PREFIX: requiredText,
  },
  'is required',
);

export type EdgeConfig = Config & {
  /** Shard 0's store (the first of `edgeKvsArns`). */
  edgeKvsArn: string;
  /** Shard 0's distribution. */
  edgeDistributionId: string;
  /** Every shard's store and distribution, by shard number (absent: shard 0's alone). */
  edgeShards?: readonly { kvsArn: string; distributionId: string }[];
  edgeShardCapacity?: number;
  edgeConnectionGroupId: string;
  edgeTenantPrefix: string;
};

/** Every shard of the edge, by shard number. */
export const edgeShardsOf = (config: EdgeConfig) =>
  config.edgeShards ?? [{ kvsArn: config.edgeKvsArn, distributionId: config.edgeDistributionId }];

export function loadEdgeConfig(env: Env): EdgeConfig {
  const settings = parseSettings(edgeSettingsSchema, env);
  const list = (text: string) => text.split(',').map((each) => each.trim());
  const stores = list(settings.EDGE_KVS_ARN);
  const distributions = list(settings.EDGE_DISTRIBUTION_ID);
  if (stores.length !== distributions.length || [...stores, ...distributions].some((each) => each === '')) {
    throw new Error('EDGE_KVS_ARN and EDGE_DISTRIBUTION_ID must name as many shards, in the same order');
  }
  return {
    ...configOf(settings),
    edgeKvsArn: stores[0] as string,
    edgeDistributionId: distributions[0] as string,
    edgeShards: stores.map((kvsArn, at) => ({ kvsArn, distributionId: distributions[at] as string })),
    ...(settings.EDGE_SHARD_CAPACITY === undefined ? {} : { edgeShardCapacity: settings.EDGE_SHARD_CAPACITY }),
    edgeConnectionGroupId: settings.EDGE_CONNECTION_GROUP_ID,
    edgeTenantPrefix: settings.EDGE_TENANT_PREFIX,
  };
}
