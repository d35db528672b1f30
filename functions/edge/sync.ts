/**
 * The edge sync: an EventBridge rule sends it every domain event of the bus (`detail.type` starting `domain.`);
 * it brings the host's key-value store entry and CloudFront tenant in line with the domain that holds the name
 * active now (`lib/edge/sync.ts`), so the order and repetition of events do not matter, then records on the
 * domain whether it serves yet (its tenant's state: a `domain.updated`). A failure throws: the
 * rule's target retries, then sends the event to the dead-letter queue, whose alarm pages the stage.
 * The sweep of hosts no longer served is a function of its own (functions/edge/sweep.ts).
 */

import { createDb, type Db } from '#lib/data/dynamodb.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import { edgeSyncDeps } from '#lib/domains/data/domains.ts';
import { routeLookup } from '#lib/domains/lookups.ts';
import { ACMClient, acmCertificates, CLOUDFRONT_CERTIFICATE_REGION } from '#lib/edge/acm.ts';
import {
  CloudFrontClient,
  CloudFrontKeyValueStoreClient,
  cloudFrontStore,
  cloudFrontTenants,
} from '#lib/edge/cloudfront.ts';
import type { BatchEdgeStore, ListableEdgeStore, PurgeableTenants } from '#lib/edge/ports.ts';
import { type EdgeConfig, edgeShardsOf, loadEdgeConfig } from '#lib/edge/settings.ts';
import { type SyncDeps, type SyncOutcome, syncHost } from '#lib/edge/sync.ts';
import type { WriterStats } from '#lib/edge/writer.ts';
import type { BusEvent } from '#lib/feed/bus.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { edgeHostOf } from '#lib/platform/config.ts';
import { log } from '#lib/platform/log.ts';

/** The EventBridge event a rule delivers: the bus event in `detail`. */
export type SyncEvent = { 'detail-type'?: string; detail: BusEvent };
/**
 * The SDK's settings for CloudFront's control plane and the stores: throttling and transient errors are retried
 * by the client (`standard`: exponential backoff with full jitter, 500 ms base for throttling, 20 s cap), a few
 * times, and every attempt is bounded (`requestTimeout`), so one call's worst case is known
 * (`worstCallMs`, which the function's timeout covers: test/unit/edge-timeouts.test.ts). Not `adaptive`: its
 * client-side rate limiter may wait without bound on a throttled control plane.
 */
export const controlPlaneRetries = {
  retryMode: 'standard',
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000, throwOnRequestTimeout: true },
} as const;

/** The edge the sync keeps: shard 0's store, every shard's, the tenants, and a clock (tests set it). */
export type Edge = {
  store: ListableEdgeStore;
  shards?: readonly (ListableEdgeStore & BatchEdgeStore)[];
  shardCapacity?: number;
  tenants?: PurgeableTenants;
  /** What the shards' writers met (tests, the benchmark). */
  stats?: WriterStats;
  /** How long a throttled control plane is waited for (tests shorten it). */
  throttledTenantRetries?: SyncDeps['throttledTenantRetries'];
  now?: () => number;
};

/** The clients the edge is reached through: CloudFront's on AWS, the local CloudFront's with `npm start`. */
export type CloudFrontClients = {
  cloudFront: CloudFrontClient;
  keyValueStore: CloudFrontKeyValueStoreClient;
  /** ACM, where a failed certificate is deleted once a new one is asked for (none locally: nothing to delete). */
  acm?: ACMClient;
};

/**
 * The stage's edge on CloudFront: its shards' key-value stores, and its tenants on their distributions in its
 * connection group, created once a host's DNS points at the edge host name (asked through the stage's resolver, as the
 * records' checks are).
 */
export function cloudFrontEdge(config: EdgeConfig, clients: CloudFrontClients): Edge {
  const resolver = configuredResolver(config);
  const route = routeLookup(resolver, edgeHostOf(config).edgeHostname);
  const shards = edgeShardsOf(config).map(({ kvsArn }) => cloudFrontStore(clients.keyValueStore, kvsArn));
  return {
    store: shards[0] as ListableEdgeStore,
    shards,
    ...(config.edgeShardCapacity === undefined ? {} : { shardCapacity: config.edgeShardCapacity }),
    tenants: cloudFrontTenants(clients.cloudFront, {
      distributionIds: edgeShardsOf(config).map(({ distributionId }) => distributionId),
      connectionGroupId: config.edgeConnectionGroupId,
      tenantPrefix: config.edgeTenantPrefix,
      pointsAtEdge: async (host) => (await route(host))?.status === 'found',
      ...(clients.acm ? { certificates: acmCertificates(clients.acm) } : {}),
    }),
  };
}

export function create(
  config: EdgeConfig,
  db: Db = createDb(config),
  edge: Edge = cloudFrontEdge(config, {
    cloudFront: new CloudFrontClient(controlPlaneRetries),
    keyValueStore: new CloudFrontKeyValueStoreClient(controlPlaneRetries),
    acm: new ACMClient({ ...controlPlaneRetries, region: CLOUDFRONT_CERTIFICATE_REGION }),
  }),
) {
  const deps = { ...edgeSyncDeps(db), ...edge };
  return async (event: SyncEvent): Promise<SyncOutcome> => {
    const host = (event.detail.data as { name?: unknown }).name;
    if (typeof host !== 'string') throw new Error(`Event ${event.detail.id} of ${event.detail.owner} names no domain`);
    const outcome = await syncHost(deps, host);
    log('info', 'Edge synced', { host, outcome, eventType: event.detail.type });
    return outcome;
  };
}

/** Its settings' loader, which `handler` binds at cold start (the stack's tests call it too). */
export const load = loadEdgeConfig;

export const handler = atColdStart(create, load);
