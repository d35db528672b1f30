/**
 * The edge sync function (functions/edge/sync.ts) as Lambda runs it, against DynamoDB Local, with the local
 * key-value store and recording tenants in place of CloudFront's: a domain event brings the host's entry and
 * tenant in line with the domain as it is now (whatever the event says), records `serving` on the domain, and
 * a repeat changes nothing; an event that names no domain fails (the rule retries, then dead-letters it); the
 * scheduled sweep deletes what a deleted domain left behind, once old enough.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { create, type SyncEvent } from '#functions/edge/sync.ts';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import type { Serving } from '#lib/data/domain-status.ts';
import { destroyDomain, type LookupRecords, showDomain, storeDomain, verifyDomain } from '#lib/data/domains.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/record.ts';
import type { PurgeableTenants } from '#lib/edge/sweep.ts';
import { config, db } from '#test/support/database.ts';

/** Tenants that answer `serving` as set, recording every call. */
function recordingTenants(serving: Serving = { state: 'provisioning' }) {
  const calls: string[] = [];
  const tenants: PurgeableTenants = {
    ensure: async (host) => {
      calls.push(`ensure ${host}`);
      return serving;
    },
    remove: async (host) => void calls.push(`remove ${host}`),
    purge: async (host) => {
      calls.push(`purge ${host}`);
      return true;
    },
  };
  return { tenants, calls };
}

/** A domain event as the rule delivers it; only the name matters to the sync (it reads the rest itself). */
const eventFor = (owner: string, name: string, type = 'domain.updated'): SyncEvent =>
  ({ 'detail-type': type, detail: { id: '000000000001', type, owner, data: { name } } }) as unknown as SyncEvent;

/** Verifies a new domain of a new owner, its TXT record found. */
async function activeDomain() {
  const owner = `owner-${randomUUID()}`;
  const name = `sync-${randomUUID().slice(0, 8)}.example`;
  const stored = await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null });
  const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
  await verifyDomain(db, found, owner, stored.id);
  return { owner, name, id: stored.id };
}

describe('the edge sync function', () => {
  it('serves an active domain, creates its tenant and records its serving state; a repeat changes nothing', async () => {
    // Prepare
    const { owner, name, id } = await activeDomain();
    const store = new LocalKeyValueStore();
    const { tenants, calls } = recordingTenants({ state: 'provisioning' });
    const sync = create(config, db, { store, tenants });
    // Act
    const first = await sync(eventFor(owner, name, 'domain.verified'));
    const version = (await showDomain(db, owner, id)).version;
    const repeat = await sync(eventFor(owner, name, 'domain.verified'));
    // Assess
    expect([first, repeat]).toEqual(['written', 'unchanged']);
    expect(await store.get(name, { format: 'json' })).toMatchObject({ s: 'active', i: 'https://a.example/', n: '' });
    expect(calls).toEqual([`ensure ${name}`, `ensure ${name}`]);
    const shown = await showDomain(db, owner, id);
    expect(shown.serving).toBe('provisioning');
    expect(shown.version).toBe(version); // the repeat found the state recorded already
  });

  it('follows the domain as it is now, not the event: a late event of a deleted domain leaves a tombstone', async () => {
    // Prepare
    const { owner, name, id } = await activeDomain();
    const store = new LocalKeyValueStore();
    const { tenants, calls } = recordingTenants();
    const sync = create(config, db, { store, tenants });
    await sync(eventFor(owner, name, 'domain.verified'));
    await destroyDomain(db, owner, id);
    // Act: the verified event again (late), then the deleted one
    await sync(eventFor(owner, name, 'domain.verified'));
    await sync(eventFor(owner, name, 'domain.deleted'));
    // Assess
    expect(await store.get(name, { format: 'json' })).toMatchObject({ s: 'none' });
    expect(calls.slice(1)).toEqual([`remove ${name}`, `remove ${name}`]);
  });

  it('fails an event that names no domain, for the rule to retry and dead-letter', async () => {
    // Prepare
    const sync = create(config, db, { store: new LocalKeyValueStore(), tenants: recordingTenants().tenants });
    const nameless = { detail: { id: '000000000009', type: 'domain.updated', owner: 'acme', data: {} } };
    // Act / Assess
    await expect(sync(nameless as unknown as SyncEvent)).rejects.toThrow(/names no domain/);
  });

  it('sweeps, when scheduled, the tombstone and tenant a deleted domain left, once older than any sync', async () => {
    // Prepare
    const { owner, name, id } = await activeDomain();
    const store = new LocalKeyValueStore();
    const { tenants, calls } = recordingTenants();
    await create(config, db, { store, tenants })(eventFor(owner, name));
    await destroyDomain(db, owner, id);
    await create(config, db, { store, tenants })(eventFor(owner, name, 'domain.deleted'));
    const later = create(config, db, { store, tenants, now: () => Date.now() + TOMBSTONE_TTL_MS + 60_000 });
    // Act
    const soon = await create(config, db, { store, tenants })({ action: 'sweep' });
    const swept = await later({ action: 'sweep' });
    // Assess
    expect(soon).toEqual({ swept: 0, kept: 0 });
    expect(swept).toEqual({ swept: 1, kept: 0 });
    expect(calls.at(-1)).toBe(`purge ${name}`);
    expect(store.size).toBe(0);
  });
});
