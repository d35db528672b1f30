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
    /** The edge's CloudFront KeyValueStore (its ARN). */
    EDGE_KVS_ARN: requiredText,
    /** The stage's multi-tenant CloudFront distribution, whose tenants the sync creates, disables and deletes. */
    EDGE_DISTRIBUTION_ID: requiredText,
    /** The stage's connection group, whose routing endpoint served domains point at: its tenants' group. */
    EDGE_CONNECTION_GROUP_ID: requiredText,
    /** What the stage's tenant names start with (`domains-spaces-prod`), so stages in one account tell theirs apart. */
    EDGE_TENANT_PREFIX: requiredText,
  },
  'is required',
);

export type EdgeConfig = Config & {
  edgeKvsArn: string;
  edgeDistributionId: string;
  edgeConnectionGroupId: string;
  edgeTenantPrefix: string;
};

export function loadEdgeConfig(env: Env): EdgeConfig {
  const settings = parseSettings(edgeSettingsSchema, env);
  return {
    ...configOf(settings),
    edgeKvsArn: settings.EDGE_KVS_ARN,
    edgeDistributionId: settings.EDGE_DISTRIBUTION_ID,
    edgeConnectionGroupId: settings.EDGE_CONNECTION_GROUP_ID,
    edgeTenantPrefix: settings.EDGE_TENANT_PREFIX,
  };
}
