/**
 * The edge's hourly sweep: a host no longer served keeps a tombstone in the store (so a late sync of its older
 * state cannot revive it) and, on AWS, a disabled tenant. Once the tombstone is older than any sync can take
 * (`TOMBSTONE_TTL_MS`), neither is needed: the sweep deletes the tenant, then the tombstone, each on the
 * condition that it has not changed since it was read (the tenant's ETag, the store's). A host being served
 * again meanwhile changes both, so the sweep leaves it alone; what it could not delete it tries again next hour.
 * Shared by the AWS sync function (a scheduled invocation) and the local edge.
 */

import { type ListableEdgeStore, type PurgeableTenants, StoreChanged } from './ports.ts';
import { parseEdgeRecord, TOMBSTONE_TTL_MS } from './rules/record.ts';

export type SweepDeps = { store: ListableEdgeStore; tenants?: PurgeableTenants; now?: () => number };

export type SweepResult = {
  /** Tombstones deleted (with their tenants). */
  swept: number;
  /** Old tombstones kept for now: a tenant not yet deletable, or a store that changed meanwhile. */
  kept: number;
};

export async function sweepEdge({ store, tenants, now = Date.now }: SweepDeps): Promise<SweepResult> {
  const before = now() - TOMBSTONE_TTL_MS;
  const result: SweepResult = { swept: 0, kept: 0 };
  for await (const { key, value } of store.keys()) {
    const listed = parseEdgeRecord(value);
    if (listed?.s !== 'none' || listed.t >= before) continue;
    if (tenants && !(await tenants.purge(key))) {
      result.kept++;
      continue;
    }
    // Read again, with the ETag the delete is conditional on: only the same tombstone goes.
    const { value: current, etag } = await store.read(key);
    const record = parseEdgeRecord(current);
    if (record?.s !== 'none' || record.t !== listed.t) {
      result.kept++;
      continue;
    }
    try {
      await store.remove(key, etag);
      result.swept++;
    } catch (error) {
      if (!(error instanceof StoreChanged)) throw error;
      result.kept++;
    }
  }
  return result;
}
