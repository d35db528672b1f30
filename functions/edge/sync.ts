/**
 * The edge sync: an EventBridge rule sends it every domain event of the bus (`detail.type` starting `domain.`);
 * it brings the host's key-value store entry and CloudFront tenant in line with the domain that holds the name
 * active now (`lib/edge/sync.ts`), so the order and repetition of events do not matter, then records on the
 * domain whether it serves yet (its tenant's state: a `domain.updated`). A failure throws: the
 * rule's target retries, then sends the event to the dead-letter queue, whose alarm pages the stage.
 * Every hour EventBridge Scheduler invokes it with `{"action":"sweep"}` instead: it deletes the tombstones and
 * disabled tenants of hosts no longer served (`lib/edge/sweep.ts`).
 */
import { atColdStart, type Config, required } from '#lib/config.ts';
import { edgeSyncDeps } from '#lib/data/domains.ts';
import { createDb, type Db } from '#lib/dynamodb.ts';
import {
  CloudFrontClient,
  CloudFrontKeyValueStoreClient,
  cloudFrontStore,
  cloudFrontTenants,
} from '#lib/edge/cloudfront.ts';
import { type ListableEdgeStore, type PurgeableTenants, type SweepResult, sweepEdge } from '#lib/edge/sweep.ts';
import { type SyncOutcome, syncHost } from '#lib/edge/sync.ts';
import type { BusEvent } from '#lib/events-bus.ts';
import { log } from '#lib/log.ts';

/** The EventBridge event a rule delivers: the bus event in `detail`. */
export type SyncEvent = { 'detail-type'?: string; detail: BusEvent };
/** The schedule's input (`infra/constructs/edge.ts`). */
export type SweepEvent = { action: 'sweep' };

const isSweep = (event: SyncEvent | SweepEvent): event is SweepEvent => (event as SweepEvent).action === 'sweep';

/**
 * CloudFront's control-plane APIs have low request rates: a burst of domain events (a migration's first checks,
 * say) is slowed down by the client (adaptive: it backs off on throttling) rather than failed.
 */
const controlPlaneRetries = { retryMode: 'adaptive', maxAttempts: 6 } as const;

export function create(
  config: Config,
  db: Db = createDb(config),
  edge: { store: ListableEdgeStore; tenants?: PurgeableTenants; now?: () => number } = {
    store: cloudFrontStore(
      new CloudFrontKeyValueStoreClient(controlPlaneRetries),
      required(config, 'edgeKvsArn', 'EDGE_KVS_ARN'),
    ),
    tenants: cloudFrontTenants(
      new CloudFrontClient(controlPlaneRetries),
      required(config, 'edgeDistributionId', 'EDGE_DISTRIBUTION_ID'),
    ),
  },
) {
  const deps = { ...edgeSyncDeps(db), ...edge };
  return async (event: SyncEvent | SweepEvent): Promise<SyncOutcome | SweepResult> => {
    if (isSweep(event)) {
      const result = await sweepEdge(edge);
      log('info', 'Edge swept', result);
      return result;
    }
    const host = (event.detail.data as { name?: unknown }).name;
    if (typeof host !== 'string') throw new Error(`Event ${event.detail.id} of ${event.detail.owner} names no domain`);
    const outcome = await syncHost(deps, host);
    log('info', 'Edge synced', { host, outcome, eventType: event.detail.type });
    return outcome;
  };
}

export const handler = atColdStart(create);
