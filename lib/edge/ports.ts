/**
 * What the edge's logic (the sync, the sweep) asks of the edge, and what its adapters provide: CloudFront's
 * (`cloudfront.ts`), and in tests the in-memory store. Types and one error, so adapters and logic meet here
 * rather than importing each other.
 */
import type { Serving } from '#lib/edge/rules/serving.ts';
import type { EdgeEntry } from './rules/entry.ts';

/** The key-value store, as the sync writes it: conditional on the ETag read with the value. */
export type EdgeStore = {
  read(key: string): Promise<{ value: unknown; etag: string }>;
  put(key: string, value: EdgeEntry, ifMatch: string): Promise<void>;
  remove(key: string, ifMatch: string): Promise<void>;
};

/**
 * The store as the shard's one writer writes it (`lib/edge/writer.ts`): its version, the values of keys, and
 * many keys in one conditional write (CloudFront's UpdateKeys).
 */
export type BatchEdgeStore = EdgeStore & {
  version(): Promise<string>;
  /** The key's value, or null for a key the store does not hold. */
  get(key: string): Promise<unknown>;
  /** Puts every entry at once, on the condition of the store's version (`StoreChanged`, `StoreFull`). */
  putAll(puts: readonly { key: string; value: EdgeEntry }[], ifMatch: string): Promise<void>;
};

/** Thrown by a store that refuses a write because it would pass its size quota (5 MB on CloudFront). */
export class StoreFull extends Error {
  constructor() {
    super('The key-value store is full');
    this.name = 'StoreFull';
  }
}

/**
 * Thrown by the tenants when CloudFront's control plane throttled a call past the SDK's own retries: the sync
 * waits and tries again within its budget, then leaves the domain `provisioning` for the re-check.
 */
export class ControlPlaneBusy extends Error {
  constructor(cause?: unknown) {
    super("CloudFront's control plane is throttling the edge's calls", { cause });
    this.name = 'ControlPlaneBusy';
  }
}

/** A write waiting for its shard's writer: the host's entry (JSON), read at `t`. */
export type PendingWrite = { host: string; value: string; t: number };

/**
 * Each shard's queue of writes and the lease that makes one sync its writer at a time (the table's:
 * `lib/edge/data/edge-shards.ts`).
 */
export type ShardQueue = {
  /** Queues the host's write unless a newer one is queued: false then. */
  queue(shard: number, write: PendingWrite): Promise<boolean>;
  /** Whether the host's write of `t` is queued still, was refused (the store full), or applied (or superseded). */
  state(shard: number, host: string, t: number): Promise<'queued' | 'refused' | 'older' | 'applied'>;
  pending(shard: number, limit: number): Promise<PendingWrite[]>;
  settle(shard: number, write: PendingWrite, outcome: 'applied' | 'refused' | 'older'): Promise<void>;
  takeLease(shard: number, holder: string, now: number, ms: number): Promise<boolean>;
  releaseLease(shard: number, holder: string): Promise<void>;
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
export type EdgeTenants = {
  /** `shard`: the host's (its tenant goes on that shard's distribution); 0 when absent. */
  ensure(host: string, shard?: number): Promise<Serving>;
  remove(host: string): Promise<void>;
};

/** One page of a store's keys with their values, and where the next page starts (none: this was the last). */
export type StorePage = { items: { key: string; value: unknown }[]; next?: string };

/**
 * A store the sweep can list: every key with its value (CloudFront's ListKeys, the local store's entries), all at
 * once (`keys`) or a page at a time from where the last page ended (`page`, with its `next`), and its size as
 * the store's quota counts it (`usage`: DescribeKeyValueStore's ItemCount and TotalSizeInBytes).
 */
export type ListableEdgeStore = EdgeStore & {
  keys(): AsyncIterable<{ key: string; value: unknown }>;
  page(token?: string): Promise<StorePage>;
  usage?(): Promise<{ keys: number; bytes: number }>;
};

/**
 * What purging a host's tenant came to: false when it is enabled or still deploying, or changed since it was
 * read (kept for the next sweep); true when none is left (deleted, or there was none); the ARN of the managed
 * certificate the deleted tenant held, which CloudFront leaves in ACM (docs/deployment.md, "The sweep").
 */
export type Purged = boolean | { certificateArn: string };

/** A host's tenant, deleted if disabled and settled (`Purged`). */
export type PurgeableTenants = EdgeTenants & { purge(host: string): Promise<Purged> };

/**
 * The account's ACM certificates, as the sweep and the teardown see them (`lib/edge/acm.ts`): `remove` deletes
 * one no resource uses (`in_use` when one still does, `gone` when there is none); `count` is how many the account
 * holds in any state, which is what ACM's quota counts.
 */
export type EdgeCertificates = {
  remove(arn: string): Promise<'deleted' | 'in_use' | 'gone'>;
  count?(): Promise<number>;
};

export type { CursorKeeper, SweepCursor } from './data/sweep-cursor.ts';
