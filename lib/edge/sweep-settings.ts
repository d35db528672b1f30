/**
 * The edge sweep's settings (functions/edge/sweep.ts): the shared ones (`lib/platform/config.ts`), and each shard's store
 * and distribution as lists in shard order (`EDGE_KVS_ARNS`, `EDGE_DISTRIBUTION_IDS`: comma-separated, one entry
 * per shard, as many of each), the stage's connection group and tenant prefix. Bound at cold start.
 * Also the settings its clients run with, and the budget they leave inside its timeout
 * (`infra/constructs/edge-sweep.ts` derives the timeout from them; test/infra checks it).
 */
import * as v from 'valibot';
import type { Env } from '#lib/platform/cold-start.ts';
import { type Config, configOf, parseSettings, settingEntries } from '#lib/platform/config.ts';

const requiredText = v.pipe(v.string('is required'), v.trim(), v.nonEmpty('is required'));
const list = v.pipe(
  requiredText,
  v.transform((text) => text.split(',').map((item) => item.trim())),
  v.check((items) => items.every((item) => item !== ''), 'must be a comma-separated list without empty entries'),
);

const sweepSettingsSchema = v.pipe(
  v.object(
    {
      ...settingEntries,
      /** Every shard's CloudFront KeyValueStore (ARNs), in shard order. */
      EDGE_KVS_ARNS: list,
      /** Every shard's multi-tenant distribution, in the same order: a store's hosts have their tenants there. */
      EDGE_DISTRIBUTION_IDS: list,
      /** The stage's connection group: its tenants' group. */
      EDGE_CONNECTION_GROUP_ID: requiredText,
      /** What the stage's tenant names start with. */
      EDGE_TENANT_PREFIX: requiredText,
    },
    'is required',
  ),
  v.check(
    (settings) => settings.EDGE_KVS_ARNS.length === settings.EDGE_DISTRIBUTION_IDS.length,
    'EDGE_KVS_ARNS and EDGE_DISTRIBUTION_IDS must name as many shards',
  ),
);

export type SweepShardConfig = { kvsArn: string; distributionId: string };

export type SweepConfig = Config & {
  edgeShards: SweepShardConfig[];
  edgeConnectionGroupId: string;
  edgeTenantPrefix: string;
};

export function loadSweepConfig(env: Env): SweepConfig {
  const settings = parseSettings(sweepSettingsSchema, env);
  return {
    ...configOf(settings),
    edgeShards: settings.EDGE_KVS_ARNS.map((kvsArn, shard) => ({
      kvsArn,
      distributionId: settings.EDGE_DISTRIBUTION_IDS[shard] as string,
    })),
    edgeConnectionGroupId: settings.EDGE_CONNECTION_GROUP_ID,
    edgeTenantPrefix: settings.EDGE_TENANT_PREFIX,
  };
}

/**
 * The sweep's AWS clients (CloudFront, KeyValueStore, ACM): standard retries, a bounded wait per attempt, so one
 * call's worst is `maxAttempts × (connection + request timeout)` plus the backoffs between (standard mode: at
 * most 100 ms · 2^retry each, "Retry behavior", AWS SDKs and Tools Reference Guide).
 */
export const sweepClientSettings = {
  maxAttempts: 4,
  retryMode: 'standard',
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true },
} as const;

/** The most calls one host takes (find, certificate, delete tenant, delete certificate, read: 2, delete key). */
export const SWEEP_CALLS_PER_HOST = 7;

/** No host is started after this much of an invocation: the rest of the timeout is the last host's worst. */
export const SWEEP_BUDGET_MS = 60_000;

/** The worst one call can take with `sweepClientSettings`, in ms. */
export function worstCallMs(settings: typeof sweepClientSettings = sweepClientSettings): number {
  const { maxAttempts, requestHandler } = settings;
  const perAttempt = requestHandler.connectionTimeout + requestHandler.requestTimeout;
  let backoffs = 0;
  for (let retry = 1; retry < maxAttempts; retry++) backoffs += Math.min(20_000, 100 * 2 ** retry);
  return maxAttempts * perAttempt + backoffs;
}
