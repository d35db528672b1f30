/**
 * The edge sync (lib/edge/sync.ts) against the local key-value store: it writes the state read now, never an
 * older one over a newer one, whatever order (or how many times) the events that trigger it arrive in; a
 * host no longer served gets a tombstone, which a late sync of the older state cannot overwrite.
 */
import { describe, expect, it } from 'vitest';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import { type EdgeTenants, StoreChanged, syncHost } from '#lib/edge/sync.ts';

type Pages = { indexPage: string | null; notFoundPage: string | null } | null;

/** A sync whose read of the domain resolves when the test says, returning the state given then. */
function controlledRead() {
  const pending: ((pages: Pages) => void)[] = [];
  return {
    activeDomain: () => new Promise<Pages>((resolve) => pending.push(resolve)),
    answer: (at: number, pages: Pages) => pending[at]?.(pages),
  };
}

const host = 'example.com';
const active = (index: string): Pages => ({ indexPage: index, notFoundPage: null });

describe('syncing a host', () => {
  it('writes the active domain’s record, then nothing more for a repeat of the same state', async () => {
    // Prepare
    const store = new LocalKeyValueStore();
    const deps = { activeDomain: async () => active('https://a.example/'), store, now: () => 1_000 };
    // Act
    const first = await syncHost(deps, host);
    const repeat = await syncHost({ ...deps, now: () => 2_000 }, host);
    // Assess
    expect([first, repeat]).toEqual(['written', 'unchanged']);
    expect(await store.get(host, { format: 'json' })).toEqual({
      s: 'active',
      i: 'https://a.example/',
      n: '',
      t: 1_000,
    });
  });

  it('never lets a sync that read an older state overwrite a newer one (events out of order)', async () => {
    // Prepare: sync A reads the domain first (old pages), sync B reads it later (new pages) and writes first.
    const store = new LocalKeyValueStore();
    const reads = controlledRead();
    let clock = 0;
    const deps = { activeDomain: reads.activeDomain, store, now: () => ++clock };
    // Act
    const late = syncHost(deps, host);
    const early = syncHost(deps, host);
    reads.answer(1, active('https://new.example/'));
    const newer = await early;
    reads.answer(0, active('https://old.example/'));
    const older = await late;
    // Assess
    expect([newer, older]).toEqual(['written', 'older']);
    expect(await store.get(host, { format: 'json' })).toMatchObject({ i: 'https://new.example/' });
  });

  it('leaves a tombstone when the host is no longer served, which a late sync of the active state cannot revive', async () => {
    // Prepare: served; then sync A reads it still active, sync B reads it deleted and writes first.
    const store = new LocalKeyValueStore();
    await syncHost({ activeDomain: async () => active('https://a.example/'), store, now: () => 1 }, host);
    const reads = controlledRead();
    let clock = 10;
    const deps = { activeDomain: reads.activeDomain, store, now: () => ++clock };
    // Act
    const late = syncHost(deps, host);
    const deleted = syncHost(deps, host);
    reads.answer(1, null);
    await deleted;
    reads.answer(0, active('https://a.example/'));
    const revived = await late;
    // Assess
    expect(revived).toBe('older');
    expect(await store.get(host, { format: 'json' })).toEqual({ s: 'none', t: 12 });
  });

  it('writes nothing for a host never served and not active', async () => {
    // Prepare
    const store = new LocalKeyValueStore();
    // Act
    const outcome = await syncHost({ activeDomain: async () => null, store }, 'unknown.example');
    // Assess
    expect(outcome).toBe('unchanged');
    expect(store.size).toBe(0);
  });

  it('reads again when the store changed between its read and its write (the ETag moved)', async () => {
    // Prepare: the first write finds the store changed by another host's write.
    const store = new LocalKeyValueStore();
    const put = store.put.bind(store);
    let collisions = 0;
    store.put = async (key, value, ifMatch) => {
      if (collisions++ === 0) {
        await put('other.example', { s: 'none', t: 0 }, ifMatch);
        throw new StoreChanged();
      }
      return put(key, value, ifMatch);
    };
    // Act
    const outcome = await syncHost({ activeDomain: async () => active('https://a.example/'), store }, host);
    // Assess
    expect(outcome).toBe('written');
    expect(await store.get(host, { format: 'json' })).toMatchObject({ s: 'active' });
  });

  it('keeps the tenant in line with the state read: ensured while active, removed after', async () => {
    // Prepare
    const store = new LocalKeyValueStore();
    const calls: string[] = [];
    const tenants: EdgeTenants = {
      ensure: async (name) => void calls.push(`ensure ${name}`),
      remove: async (name) => void calls.push(`remove ${name}`),
    };
    // Act
    await syncHost({ activeDomain: async () => active('https://a.example/'), store, tenants, now: () => 1 }, host);
    await syncHost({ activeDomain: async () => null, store, tenants, now: () => 2 }, host);
    // Assess
    expect(calls).toEqual([`ensure ${host}`, `remove ${host}`]);
  });
});
