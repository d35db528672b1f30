/**
 * Keeps the edge's key-value store (and, on AWS, the CloudFront tenant) of a host in line with the domain that
 * holds it active. Every domain event triggers it for its host; it reads the state as it is now rather than
 * trusting the event, so a late, repeated or reordered event converges to the same answer, and it writes only
 * over an older state (`t`), on the condition that the store did not change since it read it (its ETag).
 * Shared by the AWS sync function (functions/edge/sync.ts) and the local edge (infra/local/edge.ts).
 */
import type { ServingState } from '#lib/data/domain-status.ts';
import { type EdgeRecord, edgeRecordOf, parseEdgeRecord, sameService } from './record.ts';

/** The key-value store, as the sync writes it: conditional on the ETag read with the value. */
export type EdgeStore = {
  read(key: string): Promise<{ value: unknown; etag: string }>;
  put(key: string, value: EdgeRecord, ifMatch: string): Promise<void>;
  remove(key: string, ifMatch: string): Promise<void>;
};

/** Thrown by a store whose ETag no longer matches: another write came first. */
export class StoreChanged extends Error {
  constructor() {
    super('The key-value store changed since it was read');
    this.name = 'StoreChanged';
  }
}

/**
 * CloudFront's per-domain tenant (AWS only): created for an active host (`ensure` says whether it serves
 * yet: its certificate issued and the tenant deployed), disabled otherwise.
 */
export type EdgeTenants = { ensure(host: string): Promise<ServingState>; remove(host: string): Promise<void> };

/** The domain that holds a host active: where it lives, what it serves, and what it last recorded of serving. */
export type ServedDomain = {
  owner: string;
  id: number;
  indexPage?: string | null;
  notFoundPage?: string | null;
  serving?: ServingState;
};

export type SyncDeps = {
  /** The domain holding `host` active now, or null. */
  activeDomain(host: string): Promise<ServedDomain | null>;
  store: EdgeStore;
  /** Absent locally: the store alone serves, so a domain in it is served. */
  tenants?: EdgeTenants;
  /** Records on the domain whether the edge serves it (`recordServing`), when that changed. */
  recordServing?(domain: ServedDomain, serving: ServingState): Promise<void>;
  now?: () => number;
};

export type SyncOutcome = 'written' | 'unchanged' | 'older';

const ATTEMPTS = 5;

export async function syncHost(deps: SyncDeps, host: string): Promise<SyncOutcome> {
  const now = deps.now ?? Date.now;
  const at = now();
  const domain = await deps.activeDomain(host);
  const desired = edgeRecordOf(domain, at);
  let outcome: SyncOutcome = 'unchanged';
  for (let attempt = 1; ; attempt++) {
    const { value, etag } = await deps.store.read(host);
    const current = parseEdgeRecord(value);
    if (current && current.t > at) {
      outcome = 'older';
      break;
    }
    if (sameService(current, desired) || (current === null && desired.s === 'none')) break;
    try {
      await deps.store.put(host, desired, etag);
      outcome = 'written';
      break;
    } catch (error) {
      if (!(error instanceof StoreChanged) || attempt === ATTEMPTS) throw error;
    }
  }
  if (outcome === 'older') return outcome;
  // The tenant follows the state read now, whichever sync wrote the store: both calls are idempotent.
  if (!domain) {
    await deps.tenants?.remove(host);
    return outcome;
  }
  const serving = deps.tenants ? await deps.tenants.ensure(host) : 'active';
  if (domain.serving !== serving) await deps.recordServing?.(domain, serving);
  return outcome;
}
