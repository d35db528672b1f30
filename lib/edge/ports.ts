/**
 * What the edge's logic (the sync, the sweep) asks of the edge, and what its adapters provide: CloudFront's
 * (`cloudfront.ts`), and in tests the in-memory store. Types and one error, so adapters and logic meet here
 * rather than importing each other.
 */
import type { Serving } from '#lib/edge/rules/serving.ts';
import type { EdgeRecord } from './rules/record.ts';

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

/** A store the sweep can list: every key with its value (CloudFront's ListKeys, the local store's entries). */
export type ListableEdgeStore = EdgeStore & { keys(): AsyncIterable<{ key: string; value: unknown }> };

/**
 * A host's tenant, deleted if disabled and settled: true when none is left (deleted, or there was none), false
 * when it is enabled or still deploying, or changed since it was read.
 */
export type PurgeableTenants = EdgeTenants & { purge(host: string): Promise<boolean> };
