/**
 * The edge's hourly sweep (lib/edge/sweep.ts) against the local key-value store: tombstones older than any sync
 * takes go, with their tenants; a young tombstone, an active host, a tenant not yet deletable, and a host served
 * again while the sweep looked stay.
 */
import { describe, expect, it } from 'vitest';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import { type PurgeableTenants, StoreChanged } from '#lib/edge/ports.ts';
import type { EdgeRecord } from '#lib/edge/rules/record.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/rules/record.ts';
import { sweepEdge } from '#lib/edge/sweep.ts';

const NOW = 10 * TOMBSTONE_TTL_MS;
const old = NOW - TOMBSTONE_TTL_MS - 1;
const young = NOW - TOMBSTONE_TTL_MS + 1_000;

/** A store holding these records, written in order. */
async function storeWith(records: Record<string, EdgeRecord>) {
  const store = new LocalKeyValueStore();
  for (const [key, record] of Object.entries(records)) {
    await store.put(key, record, (await store.read(key)).etag);
  }
  return store;
}

const keysOf = async (store: LocalKeyValueStore) => {
  const keys: string[] = [];
  for await (const { key } of store.keys()) keys.push(key);
  return keys.sort();
};

/** Tenants that purge as told per host (true: deleted), recording the calls. */
function tenantsThat(purged: Record<string, boolean> = {}) {
  const calls: string[] = [];
  const tenants: PurgeableTenants = {
    ensure: async () => ({ state: 'active' }),
    remove: async () => undefined,
    purge: async (host) => {
      calls.push(host);
      return purged[host] ?? true;
    },
  };
  return { tenants, calls };
}

describe('sweeping the edge', () => {
  it('deletes old tombstones and their tenants, and nothing else', async () => {
    // Prepare
    const store = await storeWith({
      'gone.example': { s: 'none', t: old },
      'recent.example': { s: 'none', t: young },
      'served.example': { s: 'active', i: 'https://a.example/', n: '', t: old },
    });
    const { tenants, calls } = tenantsThat();
    // Act
    const result = await sweepEdge({ store, tenants, now: () => NOW });
    // Assess
    expect(result).toEqual({ swept: 1, kept: 0 });
    expect(calls).toEqual(['gone.example']);
    expect(await keysOf(store)).toEqual(['recent.example', 'served.example']);
  });

  it('keeps a tombstone whose tenant cannot go yet (enabled again, or still deploying), for the next sweep', async () => {
    // Prepare
    const store = await storeWith({ 'gone.example': { s: 'none', t: old } });
    const { tenants } = tenantsThat({ 'gone.example': false });
    // Act
    const first = await sweepEdge({ store, tenants, now: () => NOW });
    const next = await sweepEdge({ store, tenants: tenantsThat().tenants, now: () => NOW });
    // Assess
    expect(first).toEqual({ swept: 0, kept: 1 });
    expect(next).toEqual({ swept: 1, kept: 0 });
    expect(await keysOf(store)).toEqual([]);
  });

  it('leaves a host that is served again while the sweep looked', async () => {
    // Prepare: the host is verified again, and its sync writes its record, while its tenant is purged.
    const store = await storeWith({ 'back.example': { s: 'none', t: old } });
    const served: EdgeRecord = { s: 'active', i: 'https://b.example/', n: '', t: NOW };
    const tenants: PurgeableTenants = {
      ...tenantsThat().tenants,
      purge: async (host) => {
        await store.put(host, served, (await store.read(host)).etag);
        return true;
      },
    };
    // Act
    const result = await sweepEdge({ store, tenants, now: () => NOW });
    // Assess
    expect(result).toEqual({ swept: 0, kept: 1 });
    expect(await store.get('back.example', { format: 'json' })).toEqual(served);
  });

  it('keeps a tombstone when the store changed between its read and the delete', async () => {
    // Prepare: another write lands between the sweep's read and its delete (the ETag no longer matches).
    const store = await storeWith({ 'gone.example': { s: 'none', t: old } });
    const racing = Object.assign(Object.create(store) as LocalKeyValueStore, {
      remove: async () => {
        throw new StoreChanged();
      },
      keys: () => store.keys(),
      read: (key: string) => store.read(key),
    });
    // Act
    const result = await sweepEdge({ store: racing, now: () => NOW });
    // Assess
    expect(result).toEqual({ swept: 0, kept: 1 });
    expect(await keysOf(store)).toEqual(['gone.example']);
  });

  it('sweeps locally without tenants: the store alone serves', async () => {
    // Prepare
    const store = await storeWith({ 'gone.example': { s: 'none', t: old } });
    // Act
    const result = await sweepEdge({ store, now: () => NOW });
    // Assess
    expect(result).toEqual({ swept: 1, kept: 0 });
  });
});
