/**
 * The edge's sweep (lib/edge/sweep.ts) against the local key-value store: tombstones older than any sync takes
 * go, with their tenants and certificates; a young tombstone, an active host, a tenant not yet deletable, and a
 * host served again while the sweep looked stay. A pass goes through every shard page by page under a time
 * budget, across invocations, from the cursor it keeps; a new pass starts at most hourly.
 */
import { describe, expect, it } from 'vitest';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import {
  type CursorKeeper,
  type EdgeCertificates,
  type PurgeableTenants,
  StoreChanged,
  type SweepCursor,
} from '#lib/edge/ports.ts';
import type { EdgeEntry } from '#lib/edge/rules/entry.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/rules/entry.ts';
import { SWEEP_PASS_EVERY_MS, sweepEdge } from '#lib/edge/sweep.ts';

const NOW = 10 * TOMBSTONE_TTL_MS;
const old = NOW - TOMBSTONE_TTL_MS - 1;
const young = NOW - TOMBSTONE_TTL_MS + 1_000;

/** A store holding these entries, written in order. */
async function storeWith(entries: Record<string, EdgeEntry>) {
  const store = new LocalKeyValueStore();
  for (const [key, entry] of Object.entries(entries)) {
    await store.put(key, entry, (await store.read(key)).etag);
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
    const result = await sweepEdge({ shards: [{ store, tenants }], now: () => NOW });
    // Assess
    expect(result).toMatchObject({ swept: 1, kept: 0, done: true });
    expect(calls).toEqual(['gone.example']);
    expect(await keysOf(store)).toEqual(['recent.example', 'served.example']);
  });

  it('keeps a tombstone whose tenant cannot go yet (enabled again, or still deploying), for the next sweep', async () => {
    // Prepare
    const store = await storeWith({ 'gone.example': { s: 'none', t: old } });
    const { tenants } = tenantsThat({ 'gone.example': false });
    // Act
    const first = await sweepEdge({ shards: [{ store, tenants }], now: () => NOW });
    const next = await sweepEdge({ shards: [{ store, tenants: tenantsThat().tenants }], now: () => NOW });
    // Assess
    expect(first).toMatchObject({ swept: 0, kept: 1, done: true });
    expect(next).toMatchObject({ swept: 1, kept: 0, done: true });
    expect(await keysOf(store)).toEqual([]);
  });

  it('leaves a host that is served again while the sweep looked', async () => {
    // Prepare: the host is verified again, and its sync writes its entry, while its tenant is purged.
    const store = await storeWith({ 'back.example': { s: 'none', t: old } });
    const served: EdgeEntry = { s: 'active', i: 'https://b.example/', n: '', t: NOW };
    const tenants: PurgeableTenants = {
      ...tenantsThat().tenants,
      purge: async (host) => {
        await store.put(host, served, (await store.read(host)).etag);
        return true;
      },
    };
    // Act
    const result = await sweepEdge({ shards: [{ store, tenants }], now: () => NOW });
    // Assess
    expect(result).toMatchObject({ swept: 0, kept: 1, done: true });
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
      page: (token?: string) => store.page(token),
      read: (key: string) => store.read(key),
    });
    // Act
    const result = await sweepEdge({ shards: [{ store: racing }], now: () => NOW });
    // Assess
    expect(result).toMatchObject({ swept: 0, kept: 1, done: true });
    expect(await keysOf(store)).toEqual(['gone.example']);
  });

  it('sweeps locally without tenants: the store alone serves', async () => {
    // Prepare
    const store = await storeWith({ 'gone.example': { s: 'none', t: old } });
    // Act
    const result = await sweepEdge({ shards: [{ store }], now: () => NOW });
    // Assess
    expect(result).toMatchObject({ swept: 1, kept: 0, done: true });
  });
});

/** A cursor kept in memory between invocations, as the table item keeps it on AWS. */
function memoryCursor() {
  let saved: SweepCursor | null = null;
  const keeper: CursorKeeper = {
    load: async () => (saved ? structuredClone(saved) : null),
    save: async (cursor) => {
      saved = structuredClone(cursor);
    },
  };
  return { keeper, saved: () => saved };
}

describe('a sweep that finishes across invocations', () => {
  /** `count` old tombstones in each of `shards` stores. */
  async function shardsWith(shards: number, count: number) {
    return Promise.all(
      Array.from({ length: shards }, (_, shard) =>
        storeWith(
          Object.fromEntries(
            Array.from({ length: count }, (_, i) => [
              `h${String(i).padStart(4, '0')}.s${shard}.example`,
              { s: 'none', t: old },
            ]),
          ) as Record<string, EdgeEntry>,
        ),
      ),
    );
  }

  it('goes through every shard page by page under its budget, and on from its cursor, until the pass is done', async () => {
    // Prepare: 3 shards of 120 old tombstones (3 pages each); a clock that moves 10 ms per host swept.
    const stores = await shardsWith(3, 120);
    const { tenants, calls } = tenantsThat();
    let clock = NOW;
    const ticking: PurgeableTenants = {
      ...tenants,
      purge: async (host) => {
        clock += 10;
        return tenants.purge(host);
      },
    };
    const cursor = memoryCursor();
    const shards = stores.map((store) => ({ store, tenants: ticking }));
    // Act: invocations with a 500 ms budget (50 hosts each) until one says the pass is done.
    const runs = [];
    for (let run = 0; run < 20; run++) {
      const result = await sweepEdge({ shards, cursor: cursor.keeper, now: () => clock, budgetMs: 500 });
      runs.push(result);
      if (result.done) break;
    }
    // Assess: every tombstone swept exactly once, over several invocations, and nothing left
    expect(runs.length).toBeGreaterThanOrEqual(8);
    expect(runs.at(-1)).toMatchObject({ done: true });
    expect(runs.reduce((sum, run) => sum + run.swept, 0)).toBe(360);
    expect(new Set(calls).size).toBe(360);
    expect(calls.length).toBe(360);
    for (const store of stores) expect(store.size).toBe(0);
    expect(cursor.saved()).toMatchObject({ done: true, shard: 0 });
  });

  it('starts the next pass only once the last one started an hour ago', async () => {
    // Prepare
    const [store] = await shardsWith(1, 3);
    const cursor = memoryCursor();
    const shards = [{ store: store as LocalKeyValueStore }];
    await sweepEdge({ shards, cursor: cursor.keeper, now: () => NOW });
    await store?.put('late.example', { s: 'none', t: old }, (await store.read('late.example')).etag);
    // Act
    const soon = await sweepEdge({ shards, cursor: cursor.keeper, now: () => NOW + 60_000 });
    const later = await sweepEdge({ shards, cursor: cursor.keeper, now: () => NOW + SWEEP_PASS_EVERY_MS });
    // Assess
    expect(soon).toMatchObject({ idle: true, swept: 0, pages: 0 });
    expect(later).toMatchObject({ done: true, swept: 1 });
  });

  it("deletes a deleted tenant's certificate, and keeps one ACM still calls in use for the next run", async () => {
    // Prepare: two hosts whose tenants held certificates; ACM calls the second in use once.
    const store = await storeWith({ 'a.example': { s: 'none', t: old }, 'b.example': { s: 'none', t: old } });
    const tenants: PurgeableTenants = {
      ...tenantsThat().tenants,
      purge: async (host) => ({ certificateArn: `arn:aws:acm:us-east-1:123456789012:certificate/${host}` }),
    };
    const removed: string[] = [];
    let busy = 1;
    const certificates: EdgeCertificates = {
      remove: async (arn) => {
        if (arn.endsWith('b.example') && busy-- > 0) return 'in_use';
        removed.push(arn);
        return 'deleted';
      },
    };
    const cursor = memoryCursor();
    // Act
    const first = await sweepEdge({
      shards: [{ store, tenants }],
      certificates,
      cursor: cursor.keeper,
      now: () => NOW,
    });
    const waiting = cursor.saved()?.certificates;
    const next = await sweepEdge({ shards: [{ store, tenants }], certificates, cursor: cursor.keeper, now: () => NOW });
    // Assess
    expect(first).toMatchObject({ swept: 2, certificates: 1, done: true });
    expect(waiting).toEqual(['arn:aws:acm:us-east-1:123456789012:certificate/b.example']);
    expect(next).toMatchObject({ idle: true, certificates: 1 });
    expect(removed.map((arn) => arn.split('/')[1])).toEqual(['a.example', 'b.example']);
    expect(cursor.saved()?.certificates).toBeUndefined();
  });
});
