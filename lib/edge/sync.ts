/**
 * Keeps the edge's key-value store (and, on AWS, the CloudFront tenant) of a host in line with the domain that
 * holds it active. Every domain event triggers it for its host; it reads the state as it is now rather than
 * trusting the event, so a late, repeated or reordered event converges to the same answer, and it writes only
 * over an older state (`t`), on the condition that the store did not change since it read it (its ETag).
 * Shared by the AWS sync function (functions/edge/sync.ts) and the local edge (infra/local/edge.ts).
 */
import { type Serving, sameServing } from '#lib/domain-status.ts';
import {
  EDGE_VALUE_MAX_BYTES,
  type EdgeRecord,
  edgeRecordOf,
  edgeValueBytes,
  parseEdgeRecord,
  sameService,
} from './record.ts';

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
 * The stage's CloudFront tenants, one per served host (`lib/edge/cloudfront.ts`; locally the same against the
 * local CloudFront). `ensure` makes an active host's tenant serve as far as it can now and says where it
 * stands: created only once the host's DNS points at the edge (else `waiting_for_dns`, and no CloudFront call
 * that would fail), enabled again if disabled, `provisioning` until its certificate is issued and it is
 * deployed, `failed` when the owner must act. `remove` disables the stage's tenant of a host no longer served.
 * Neither ever touches a tenant of another stage's distribution.
 */
export type EdgeTenants = { ensure(host: string): Promise<Serving>; remove(host: string): Promise<void> };

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
  const serving: Serving = deps.tenants ? await deps.tenants.ensure(host) : { state: 'active' };
  await record(deps, domain, serving);
  return outcome;
}

async function record(deps: SyncDeps, domain: ServedDomain, serving: Serving) {
  if (!sameServing(domain.serving, serving)) await deps.recordServing?.(domain, serving);
}
