/**
 * Keeps the edge's key-value store (and, on AWS, the CloudFront tenant) of a host in line with the domain that
 * holds it active. Every domain event triggers it for its host; it reads the state as it is now rather than
 * trusting the event, so a late, repeated or reordered event converges to the same answer, and it writes only
 * over an older state (`t`), on the condition that the store did not change since it read it (its ETag).
 * Shared by the AWS sync function (functions/edge/sync.ts) and the local edge (infra/local/edge.ts).
 */
import { type Serving, sameServing } from '#lib/edge/rules/serving.ts';
import { again, noWait, retrying } from '#lib/platform/retry.ts';
import { type EdgeStore, type EdgeTenants, StoreChanged } from './ports.ts';
import { EDGE_VALUE_MAX_BYTES, edgeRecordOf, edgeValueBytes, parseEdgeRecord, sameService } from './rules/record.ts';

/** The domain that holds a host active: where it lives, what it serves, and what it last recorded of serving. */
export type ServedDomain = {
  owner: string;
  id: number;
  indexPage?: string | null;
  notFoundPage?: string | null;
  serving: Serving;
};

export type SyncDeps = {
  /** The domain holding `host` active now, or null. */
  activeDomain(host: string): Promise<ServedDomain | null>;
  store: EdgeStore;
  /** Absent in tests of the store alone: a domain in the store is then served. */
  tenants?: EdgeTenants;
  /** Records on the domain whether the edge serves it (`recordServing`), when that changed. */
  recordServing?(domain: ServedDomain, serving: Serving): Promise<void>;
  now?: () => number;
};

/** `unfit`: the domain's record is over the store's value limit; it was not sent, and the domain is `failed`. */
export type SyncOutcome = 'written' | 'unchanged' | 'older' | 'unfit';

const ATTEMPTS = 5;

export async function syncHost(deps: SyncDeps, host: string): Promise<SyncOutcome> {
  const now = deps.now ?? Date.now;
  const at = now();
  const domain = await deps.activeDomain(host);
  const desired = edgeRecordOf(domain, at);
  // Never send what the store would refuse for ever: the owner is told instead (only domains stored before the
  // API measured pages can get here).
  if (domain && edgeValueBytes(desired) > EDGE_VALUE_MAX_BYTES) {
    await record(deps, domain, { state: 'failed', failure: 'pages_too_large' });
    return 'unfit';
  }
  // Another write moved the store's ETag since it was read: read again, a few times.
  const outcome = await retrying<SyncOutcome>(
    { attempts: ATTEMPTS, delayMs: noWait },
    async () => {
      const { value, etag } = await deps.store.read(host);
      const current = parseEdgeRecord(value);
      if (current && current.t > at) return 'older';
      if (sameService(current, desired) || (current === null && desired.s === 'none')) return 'unchanged';
      try {
        await deps.store.put(host, desired, etag);
        return 'written';
      } catch (error) {
        if (error instanceof StoreChanged) return again;
        throw error;
      }
    },
    () => new StoreChanged(),
  );
  if (outcome === 'older') return outcome;
  // The tenant follows the state read now, whichever sync wrote the store: both calls are idempotent.
  if (!domain) {
    await deps.tenants?.remove(host);
    return outcome;
  }
  const serving: Serving = deps.tenants ? await deps.tenants.ensure(host) : { state: 'active' };
  await record(deps, domain, serving);
  return outcome;
}

async function record(deps: SyncDeps, domain: ServedDomain, serving: Serving) {
  if (!sameServing(domain.serving, serving)) await deps.recordServing?.(domain, serving);
}
