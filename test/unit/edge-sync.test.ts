/**
 * The edge sync (lib/edge/sync.ts) against the local key-value store: it writes the state read now, never an
 * older one over a newer one, whatever order (or how many times) the events that trigger it arrive in; a
 * host no longer served gets a tombstone, which a late sync of the older state cannot overwrite.
 */
import { describe, expect, it } from 'vitest';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import { servingOf } from '#lib/edge/cloudfront.ts';
import { type EdgeTenants, StoreChanged } from '#lib/edge/ports.ts';
import type { Serving } from '#lib/edge/rules/serving.ts';
import { type ServedDomain, syncHost } from '#lib/edge/sync.ts';

type Pages = ServedDomain | null;

/** A sync whose read of the domain resolves when the test says, returning the state given then. */
function controlledRead() {
  const pending: ((pages: Pages) => void)[] = [];
  return {
    activeDomain: () => new Promise<Pages>((resolve) => pending.push(resolve)),
    answer: (at: number, pages: Pages) => pending[at]?.(pages),
  };
}

const host = 'example.com';
const waiting: Serving = { state: 'waiting_for_dns' };
const active = (index: string, serving: Serving = waiting): Pages => ({
  owner: 'acme',
  id: 7,
  indexPage: index,
  notFoundPage: null,
  serving,
});

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
      ensure: async (name) => {
        calls.push(`ensure ${name}`);
        return { state: 'provisioning' };
      },
      remove: async (name) => void calls.push(`remove ${name}`),
    };
    // Act
    await syncHost({ activeDomain: async () => active('https://a.example/'), store, tenants, now: () => 1 }, host);
    await syncHost({ activeDomain: async () => null, store, tenants, now: () => 2 }, host);
    // Assess
    expect(calls).toEqual([`ensure ${host}`, `remove ${host}`]);
  });
});

describe('recording whether the edge serves a domain', () => {
  type Recorded = { id: number; serving: Serving };
  const recorder = () => {
    const recorded: Recorded[] = [];
    return {
      recorded,
      recordServing: async (domain: ServedDomain, serving: Serving) => void recorded.push({ id: domain.id, serving }),
    };
  };

  it('without tenants (the store alone) records `active` once the store serves the domain, and only when it changed', async () => {
    // Prepare
    const store = new LocalKeyValueStore();
    const { recorded, recordServing } = recorder();
    // Act
    await syncHost(
      { activeDomain: async () => active('https://a.example/'), store, recordServing, now: () => 1 },
      host,
    );
    await syncHost(
      {
        activeDomain: async () => active('https://a.example/', { state: 'active' }),
        store,
        recordServing,
        now: () => 2,
      },
      host,
    );
    // Assess
    expect(recorded).toEqual([{ id: 7, serving: { state: 'active' } }]);
  });

  it('with tenants records what they say (provisioning until the certificate is issued), and nothing for a host not served', async () => {
    // Prepare
    const store = new LocalKeyValueStore();
    const { recorded, recordServing } = recorder();
    const states: Serving[] = [{ state: 'provisioning' }, { state: 'active' }];
    const tenants: EdgeTenants = {
      ensure: async () => states.shift() ?? { state: 'failed', failure: 'certificate_failed' },
      remove: async () => undefined,
    };
    // Act
    await syncHost(
      { activeDomain: async () => active('https://a.example/'), store, tenants, recordServing, now: () => 1 },
      host,
    );
    await syncHost(
      {
        activeDomain: async () => active('https://a.example/', { state: 'provisioning' }),
        store,
        tenants,
        recordServing,
        now: () => 2,
      },
      host,
    );
    await syncHost({ activeDomain: async () => null, store, tenants, recordServing, now: () => 3 }, host);
    // Assess
    expect(recorded).toEqual([
      { id: 7, serving: { state: 'provisioning' } },
      { id: 7, serving: { state: 'active' } },
    ]);
  });
});

describe('a CloudFront tenant’s serving state', () => {
  const failed = { state: 'failed', failure: 'certificate_failed' };
  it.each([
    [{ Enabled: true, Status: 'Deployed' }, 'issued', { state: 'active' }],
    [{ Enabled: true, Status: 'InProgress' }, 'issued', { state: 'provisioning' }],
    [{ Enabled: true, Status: 'Deployed' }, 'pending-validation', { state: 'provisioning' }],
    [{ Enabled: false, Status: 'Deployed' }, 'issued', { state: 'provisioning' }],
    [{ Enabled: true, Status: 'Deployed' }, undefined, { state: 'provisioning' }],
    [{ Enabled: true, Status: 'Deployed' }, 'validation-timed-out', failed],
    [{ Enabled: true, Status: 'InProgress' }, 'failed', failed],
    [{ Enabled: true, Status: 'Deployed' }, 'revoked', failed],
    [{ Enabled: true, Status: 'Deployed' }, 'expired', failed],
    // Each domain's own status counts: one inactive, and the tenant does not serve it.
    [
      { Enabled: true, Status: 'Deployed', Domains: [{ Domain: 'a.example', Status: 'active' }] },
      'issued',
      { state: 'active' },
    ],
    [
      { Enabled: true, Status: 'Deployed', Domains: [{ Domain: 'a.example', Status: 'inactive' }] },
      'issued',
      { state: 'provisioning' },
    ],
  ] as const)('tenant %o with certificate %s serves: %o', (tenant, certificate, expected) => {
    expect(servingOf(tenant as Parameters<typeof servingOf>[0], certificate)).toEqual(expected);
  });
});
