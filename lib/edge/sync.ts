/**
 * Keeps the edge's key-value store (and, on AWS, the CloudFront tenant) of a host in line with the domain that
 * holds it active. Every domain event triggers it for its host; it reads the state as it is now rather than
 * trusting the event, so a late, repeated or reordered event converges to the same answer, and it writes only
 * over an older state (`t`).
 *
 * The edge is in shards (docs/deployment.md, "The edge"): each a distribution with its own store. A host is
 * placed on one when the sync first needs its tenant (the least full with room, `placeDomain`), kept on its
 * domain, and never moved. Its entry goes through the shard's one writer (`writer.ts`): queued, coalesced
 * with other events for the host, and written in batches. A domain there is no room for (every shard full, a
 * store full, a quota of CloudFront's) is `failed: capacity`, which the hourly re-check retries: never an error
 * that would send its event round the retries into the dead-letter queue.
 * Shared by the AWS sync function (functions/edge/sync.ts) and the local edge (infra/local/edge.ts).
 */
import { type Serving, sameServing } from '#lib/edge/rules/serving.ts';
import { again, fullJitter, retrying } from '#lib/platform/retry.ts';
import {
  type BatchEdgeStore,
  ControlPlaneBusy,
  type EdgeStore,
  type EdgeTenants,
  type ShardQueue,
  StoreChanged,
  StoreFull,
} from './ports.ts';
import {
  EDGE_VALUE_MAX_BYTES,
  type EdgeEntry,
  edgeEntryOf,
  edgeValueBytes,
  parseEdgeEntry,
  sameService,
} from './rules/entry.ts';
import { type ShardWriter, shardWriter, type WriterSettings, type WriterStats } from './writer.ts';

/** The domain that holds a host active: where it lives, what it serves, and what it last recorded of serving. */
export type ServedDomain = {
  owner: string;
  id: number;
  indexPage?: string | null;
  notFoundPage?: string | null;
  serving: Serving;
  /** Its shard, once placed. */
  edgeShard?: number;
  /** Whether the sync recorded its serving before (an item from before shards, served from shard 0). */
  seen?: boolean;
};

export type Placement = { shard: number } | { full: true } | { gone: true };

export type SyncDeps = {
  /** The domain holding `host` active now, or null. */
  activeDomain(host: string): Promise<ServedDomain | null>;
  /** Shard 0's store, when `shards` is not given (one shard). */
  store?: EdgeStore;
  /** Every shard's store, by shard number. */
  shards?: readonly EdgeStore[];
  /** Hosts a shard takes at most (`EDGE_SHARD_CAPACITY`). */
  shardCapacity?: number;
  /** Places a domain on a shard (`lib/edge/data/edge-shards.ts`); absent: every domain is on shard 0. */
  placeDomain?(
    domain: { owner: string; id: number },
    options: { shards: number; capacity: number; force?: number },
  ): Promise<Placement>;
  /** The shards' queues and leases; absent: each sync writes the store itself (tests of the store alone). */
  queue?: ShardQueue;
  writer?: WriterSettings;
  stats?: WriterStats;
  /** Absent in tests of the store alone: a domain in the store is then served. */
  tenants?: EdgeTenants;
  /** Records on the domain whether the edge serves it (`recordServing`), when that changed. */
  recordServing?(domain: ServedDomain, serving: Serving): Promise<void>;
  /** How long a throttled control plane is waited for (`THROTTLED_TENANT_RETRIES` by default; tests shorten it). */
  throttledTenantRetries?: typeof THROTTLED_TENANT_RETRIES;
  now?: () => number;
};

/**
 * `unfit`: the domain's entry is over the store's value limit; it was not sent, and the domain is `failed`.
 * `capacity`: no shard had room for it (or its store refused it as full); it is `failed: capacity`.
 */
export type SyncOutcome = 'written' | 'unchanged' | 'older' | 'unfit' | 'capacity';

/** Hosts per shard when nothing says: 5 MB over ~150 bytes a typical entry and key, with a margin. */
export const DEFAULT_SHARD_CAPACITY = 30_000;

const CAPACITY: Serving = { state: 'failed', failure: 'capacity' };

export async function syncHost(deps: SyncDeps, host: string): Promise<SyncOutcome> {
  const now = deps.now ?? Date.now;
  const at = now();
  const domain = await deps.activeDomain(host);
  const desired = edgeEntryOf(domain, at);
  // Never send what the store would refuse for ever: the owner is told instead (only domains stored before the
  // API measured pages can get here).
  if (domain && edgeValueBytes(desired) > EDGE_VALUE_MAX_BYTES) {
    await record(deps, domain, { state: 'failed', failure: 'pages_too_large' });
    return 'unfit';
  }
  const stores = storesOf(deps);
  const write = writerOf(deps, stores);
  if (!domain) {
    // No longer served: a tombstone in whichever shard's store serves the host (its domain, and so its shard,
    // may be gone).
    const values = await Promise.all(
      stores.map(async (store) => (isBatchStore(store) ? store.get(host) : (await store.read(host)).value)),
    );
    const serving = values.flatMap((value, shard) => (parseEdgeEntry(value)?.s === 'active' ? [shard] : []));
    const outcomes = await Promise.all(serving.map((shard) => write(shard, host, desired)));
    if (outcomes.includes('older')) return 'older';
    await deps.tenants?.remove(host);
    return outcomes.includes('written') ? 'written' : 'unchanged';
  }
  const shard = await shardOf(deps, domain, stores.length);
  if (shard === null) {
    await record(deps, domain, CAPACITY);
    return 'capacity';
  }
  // A domain placed by this sync (not one served before shards) was never on its shard's store: nothing there to
  // compare with first.
  const placedNow = domain.edgeShard === undefined && !domain.seen;
  const outcome = await write(shard, host, desired, { placedNow });
  if (outcome === 'older') return outcome;
  if (outcome === 'capacity') {
    await record(deps, domain, CAPACITY);
    return outcome;
  }
  // The tenant follows the state read now, whichever sync wrote the store: both calls are idempotent.
  const serving: Serving = deps.tenants
    ? await ensureTenant(deps.tenants, host, shard, deps.throttledTenantRetries)
    : { state: 'active' };
  await record(deps, domain, serving);
  return outcome;
}

/**
 * A throttled control plane (the SDK's own retries spent) is waited for, with full jitter, within this budget;
 * past it the domain stays `provisioning`, which the re-check looks at again within 5 minutes, rather than
 * failing the invocation into Lambda's retries and the dead-letter queue. Base and cap, ms.
 */
export const THROTTLED_TENANT_RETRIES = { budgetMs: 20_000, baseMs: 1_000, capMs: 8_000 };

const ensureTenant = (
  tenants: EdgeTenants,
  host: string,
  shard: number,
  { budgetMs, baseMs, capMs } = THROTTLED_TENANT_RETRIES,
): Promise<Serving> =>
  retrying<Serving>(
    { budgetMs, delayMs: fullJitter(baseMs, capMs) },
    async () => {
      try {
        return await tenants.ensure(host, shard);
      } catch (error) {
        if (error instanceof ControlPlaneBusy) return again;
        throw error;
      }
    },
    () => new ControlPlaneBusy(),
  ).catch((error: unknown) => {
    if (error instanceof ControlPlaneBusy) return { state: 'provisioning' } as const;
    throw error;
  });

const storesOf = (deps: SyncDeps): readonly EdgeStore[] => {
  const stores = deps.shards ?? (deps.store ? [deps.store] : []);
  if (stores.length === 0) throw new Error('The edge sync has no store');
  return stores;
};

/** The domain's shard: its own, shard 0 for one served before shards, or a new placement (null: no room). */
async function shardOf(deps: SyncDeps, domain: ServedDomain, shards: number): Promise<number | null> {
  if (domain.edgeShard !== undefined) return domain.edgeShard < shards ? domain.edgeShard : 0;
  if (!deps.placeDomain) return 0;
  const capacity = deps.shardCapacity ?? DEFAULT_SHARD_CAPACITY;
  const placed = await deps.placeDomain(domain, {
    shards,
    capacity,
    ...(domain.seen ? { force: 0 } : {}),
  });
  if ('shard' in placed) return placed.shard;
  // Gone meanwhile: the event of its deletion syncs it again.
  return 'gone' in placed ? 0 : null;
}

type Write = (
  shard: number,
  host: string,
  desired: EdgeEntry,
  options?: { placedNow?: boolean },
) => Promise<Exclude<SyncOutcome, 'unfit'>>;

/** Through the shards' writer when there is a queue; else each sync writes its store itself, conditionally. */
function writerOf(deps: SyncDeps, stores: readonly EdgeStore[]): Write {
  if (deps.queue && stores.every(isBatchStore)) {
    const writer: ShardWriter = shardWriter(stores as BatchEdgeStore[], deps.queue, deps.writer, deps.stats);
    return async (shard, host, desired, options = {}) => {
      // A repeat of the state the store holds needs no writer (the writer compares again before it writes).
      if (!options.placedNow) {
        const before = parseEdgeEntry(await (stores[shard] as BatchEdgeStore).get(host));
        if (before && before.t > desired.t) return 'older';
        if (sameService(before, desired) || (before === null && desired.s === 'none')) return 'unchanged';
      }
      const result = await writer.write(shard, host, desired);
      // A newer state got there first (queued, or in the store): the tenant is the newer sync's to set.
      if (result === 'superseded' || result === 'older') return 'older';
      if (result === 'refused') return 'capacity';
      return 'written';
    };
  }
  return (shard, host, desired) => writeDirectly(stores[shard] as EdgeStore, host, desired);
}

const isBatchStore = (store: EdgeStore): store is BatchEdgeStore =>
  typeof (store as Partial<BatchEdgeStore>).putAll === 'function';

/** Tries a conditional put while the store's ETag keeps moving, with jittered waits, for a few seconds. */
const DIRECT_RETRIES = { budgetMs: 5_000, delayMs: fullJitter(20, 500) };

async function writeDirectly(store: EdgeStore, host: string, desired: EdgeEntry) {
  return retrying<'written' | 'unchanged' | 'older' | 'capacity'>(
    DIRECT_RETRIES,
    async () => {
      const { value, etag } = await store.read(host);
      const current = parseEdgeEntry(value);
      if (current && current.t > desired.t) return 'older';
      if (sameService(current, desired) || (current === null && desired.s === 'none')) return 'unchanged';
      try {
        await store.put(host, desired, etag);
        return 'written';
      } catch (error) {
        if (error instanceof StoreChanged) return again;
        if (error instanceof StoreFull) return 'capacity';
        throw error;
      }
    },
    () => new StoreChanged(),
  );
}

async function record(deps: SyncDeps, domain: ServedDomain, serving: Serving) {
  if (!sameServing(domain.serving, serving)) await deps.recordServing?.(domain, serving);
}
