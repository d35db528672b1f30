/**
 * The hourly re-check of active domains against DynamoDB Local and a real DNS server on 127.0.0.1: which domains
 * are due (the sparse due-check index), what a check records, the 7-day rule that returns a domain to pending,
 * the migration that puts older active domains into the index, and a run cut short or failing part-way.
 * This file's table is its own (`#test/support/database.ts`), so every due domain here is one of its tests'.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEvents } from '#lib/data/events.ts';
import { itemKey } from '#lib/data/keys.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { dueDomains } from '#lib/domains/data/checks.ts';
import { recordServing, showDomain, storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import { backfillDueChecks } from '#lib/domains/data/migrations/backfill-due-checks.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { runDueChecks } from '#lib/domains/recheck.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import {
  FAST_RECHECK_INTERVAL_MS,
  FAST_RECHECK_WINDOW_MS,
  RECHECK_INTERVAL_MS,
  TXT_GRACE_MS,
} from '#lib/domains/rules/dns-records.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { storeOldShapeDomain } from '#test/support/domains.ts';

const EDGE_HOSTNAME = 'edge.test';
const HOUR_MS = 3_600_000;
let dns: DnsTestServer;
let lookupRecords: LookupRecords;

beforeAll(async () => {
  dns = await startDnsServer();
  lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address], timeoutMs: 250, tries: 1 }), EDGE_HOSTNAME);
});
afterAll(() => dns?.close());

const newOwner = () => `owner-${randomUUID()}`;
const newName = () => `check-${randomUUID().slice(0, 8)}.example`;
const later = (ms: number) => () => new Date(Date.now() + ms);

/** A domain of a new owner, verified with its TXT record published and its CNAME pointing at the edge. */
async function activeDomain() {
  const owner = newOwner();
  const stored = (await storeDomain(db, owner, { name: newName(), indexPage: null, notFoundPage: null })).result;
  dns.setTxt(verificationName(stored.name), [stored.verificationToken ?? '']);
  dns.setCname(stored.name, EDGE_HOSTNAME);
  const active = (await verifyDomain(db, lookupRecords, owner, stored.id)).result;
  return { owner, id: stored.id, name: stored.name, active };
}

/** Every due domain at `now`, as `owner/id`. */
async function dueAt(now: Date) {
  const due: string[] = [];
  for await (const { owner, id } of dueDomains(db, now)) due.push(`${owner}/${id}`);
  return due;
}

const domainEvents = async (owner: string) =>
  (await listEvents(db, owner, { after: { epoch: undefined, id: 0, since: 0 }, perPage: 100, types: [] })).events;

/** Moves the start of the TXT record's absence back by `ms`, as if the checks had found it missing since then. */
const missingSince = (owner: string, id: number, ms: number) =>
  db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: itemKey(owner, 'domain', id),
      UpdateExpression: 'SET #check.#since = :since',
      ExpressionAttributeNames: { '#check': 'check', '#since': 'txtMissingSince' },
      ExpressionAttributeValues: { ':since': new Date(Date.now() - ms).toISOString() },
    }),
  );

describe('dueDomains', () => {
  it('holds an active domain from its activation, due 5 minutes later while the edge sets it up, and no pending one', async () => {
    // Prepare: verified with its CNAME in place, not served yet (no sync ran): provisioning.
    const { owner, id } = await activeDomain();
    const pending = (await storeDomain(db, owner, { name: newName(), indexPage: null, notFoundPage: null })).result;
    // Act
    const now = await dueAt(new Date());
    const soon = await dueAt(new Date(Date.now() + FAST_RECHECK_INTERVAL_MS + 60_000));
    // Assess
    expect(now).not.toContain(`${owner}/${id}`);
    expect(soon).toContain(`${owner}/${id}`);
    expect(soon).not.toContain(`${owner}/${pending.id}`);
  });
});

describe('runDueChecks', () => {
  it('records what DNS holds now, schedules the next check and tells the feed', async () => {
    // Prepare: the CNAME now points elsewhere.
    const { owner, id, name, active } = await activeDomain();
    dns.setCname(name, 'elsewhere.example');
    // Act
    const run = await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess
    const checked = await showDomain(db, owner, id);
    expect(run).toMatchObject({ failed: 0, returnedToPending: 0, cutShort: false });
    expect(run.checked).toBeGreaterThanOrEqual(1);
    expect(run.changed).toBeGreaterThanOrEqual(1);
    expect(checked).toMatchObject({ status: 'active', check: { txt: 'found', route: 'wrong' } });
    expect(checked.version).toBe((active.version ?? 0) + 1);
    expect(Date.parse(checked.lastCheckedAt ?? '')).toBeGreaterThan(Date.parse(active.lastCheckedAt ?? ''));
    // Not served yet, and young: checked again within 5 minutes.
    expect(Date.parse(checked.nextCheckAt ?? '')).toBe(
      Date.parse(checked.lastCheckedAt ?? '') + FAST_RECHECK_INTERVAL_MS,
    );
    const events = await domainEvents(owner);
    expect(events.map((event) => event.type)).toEqual(['domain.created', 'domain.verified', 'domain.updated']);
    // Checked: not due again until its next interval.
    expect(await dueAt(new Date())).not.toContain(`${owner}/${id}`);
  });

  it('only moves the next check of a served domain whose records are as they were: same version, no event', async () => {
    // Prepare: served (the edge sync recorded it), its records unchanged since verification.
    const { owner, id } = await activeDomain();
    await recordServing(db, owner, id, { state: 'active' });
    const before = await showDomain(db, owner, id);
    const events = (await domainEvents(owner)).length;
    // Act
    const run = await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess
    const after = await showDomain(db, owner, id);
    expect(run.checked).toBeGreaterThan(run.changed);
    expect(after.version).toBe(before.version);
    expect(after.lastCheckedAt).toBe(before.lastCheckedAt);
    expect(Date.parse(after.nextCheckAt ?? '')).toBeGreaterThan(Date.parse(before.nextCheckAt ?? ''));
    expect(await domainEvents(owner)).toHaveLength(events);
  });

  it('records a check of a served domain once a record changes', async () => {
    // Prepare
    const { owner, id, name } = await activeDomain();
    await recordServing(db, owner, id, { state: 'active' });
    const before = await showDomain(db, owner, id);
    dns.setCname(name, 'elsewhere.example');
    // Act
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess
    const after = await showDomain(db, owner, id);
    expect(after).toMatchObject({ version: (before.version ?? 0) + 1, serving: 'active', check: { route: 'wrong' } });
    expect((await domainEvents(owner)).at(-1)).toMatchObject({ type: 'domain.updated' });
  });

  it('keeps a domain whose TXT record went missing active for the grace period, counting from the first miss', async () => {
    // Prepare
    const { owner, id, name } = await activeDomain();
    dns.setTxt(verificationName(name), []);
    // Act
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess
    const checked = await showDomain(db, owner, id);
    expect(checked).toMatchObject({
      status: 'active',
      check: { txt: 'missing', txtMissingSince: checked.lastCheckedAt },
    });
  });

  it('returns a domain whose TXT record stayed missing 7 days to pending: name released, out of the index, one domain.updated', async () => {
    // Prepare: served, and its TXT record missing since 7 days and an hour ago (the last check found it missing
    // too, so only the grace period makes this check a change).
    const { owner, id, name } = await activeDomain();
    dns.setTxt(verificationName(name), []);
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    await recordServing(db, owner, id, { state: 'active' });
    await missingSince(owner, id, TXT_GRACE_MS + HOUR_MS);
    // Act
    const run = await runDueChecks({ db, lookupRecords, now: later(4 * HOUR_MS) });
    // Assess
    const demoted = await showDomain(db, owner, id);
    expect(run.returnedToPending).toBe(1);
    expect(demoted.status).toBe('pending');
    expect(demoted).not.toHaveProperty('nextCheckAt');
    expect(demoted).not.toHaveProperty('serving');
    expect(await dueAt(new Date(Date.now() + 10 * HOUR_MS))).not.toContain(`${owner}/${id}`);
    const events = await domainEvents(owner);
    expect(events.at(-1)).toMatchObject({ type: 'domain.updated', payload: { record: { status: 'pending' } } });
    // The name is free: another owner proves it and takes it.
    const other = newOwner();
    const claim = (await storeDomain(db, other, { name, indexPage: null, notFoundPage: null })).result;
    dns.setTxt(verificationName(name), [claim.verificationToken ?? '']);
    expect((await verifyDomain(db, lookupRecords, other, claim.id)).result.status).toBe('active');
  });

  it('counts a domain whose lookup failed and leaves it due for the next run', async () => {
    // Prepare: the DNS server stops answering for this name.
    const { owner, id } = await activeDomain();
    const failing: LookupRecords = async (looked) => {
      if (looked === (await showDomain(db, owner, id)).name) throw new Error('DNS unavailable');
      return lookupRecords(looked);
    };
    // Act
    const run = await runDueChecks({ db, lookupRecords: failing, now: later(2 * HOUR_MS) });
    // Assess
    expect(run.failed).toBe(1);
    expect(await dueAt(new Date(Date.now() + 2 * HOUR_MS))).toContain(`${owner}/${id}`);
  });

  it('starts no check with less time left than its reserve, and says it stopped short', async () => {
    // Prepare
    const { owner, id, active } = await activeDomain();
    // Act
    const run = await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS), timeLeftMs: () => 10_000 });
    // Assess
    expect(run).toEqual({ checked: 0, changed: 0, returnedToPending: 0, failed: 0, cutShort: true });
    expect((await showDomain(db, owner, id)).version).toBe(active.version);
  });
});

/** Moves a domain's activation back by `ms`, as if it had been verified that long ago. */
const verifiedAgo = (owner: string, id: number, ms: number) =>
  db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: itemKey(owner, 'domain', id),
      UpdateExpression: 'SET #verifiedAt = :at',
      ExpressionAttributeNames: { '#verifiedAt': 'verifiedAt' },
      ExpressionAttributeValues: { ':at': new Date(Date.now() - ms).toISOString() },
    }),
  );

/** A domain verified with its TXT record and no CNAME yet: waiting for its DNS. */
async function waitingDomain() {
  const owner = newOwner();
  const stored = (await storeDomain(db, owner, { name: newName(), indexPage: null, notFoundPage: null })).result;
  dns.setTxt(verificationName(stored.name), [stored.verificationToken ?? '']);
  await verifyDomain(db, lookupRecords, owner, stored.id);
  return { owner, id: stored.id, name: stored.name };
}

const dueIn = (item: { nextCheckAt?: string; lastCheckedAt?: string }) =>
  Date.parse(item.nextCheckAt ?? '') - Date.parse(item.lastCheckedAt ?? '');

describe('how often a domain waiting for the edge is checked', () => {
  it('checks a domain waiting for its CNAME every 5 minutes, quietly while the CNAME is still missing', async () => {
    // Prepare
    const { owner, id } = await waitingDomain();
    const before = await showDomain(db, owner, id);
    const events = (await domainEvents(owner)).length;
    // Act
    await runDueChecks({ db, lookupRecords, now: later(FAST_RECHECK_INTERVAL_MS + 1_000) });
    // Assess: same version, no event, due again 5 minutes after this check.
    const after = await showDomain(db, owner, id);
    expect(after.version).toBe(before.version);
    expect(await domainEvents(owner)).toHaveLength(events);
    expect(Date.parse(after.nextCheckAt ?? '') - Date.now()).toBeGreaterThan(FAST_RECHECK_INTERVAL_MS - 60_000);
    expect(Date.parse(after.nextCheckAt ?? '') - Date.now()).toBeLessThanOrEqual(FAST_RECHECK_INTERVAL_MS);
  });

  it('tells the feed (and so the edge sync) once the CNAME is published', async () => {
    // Prepare
    const { owner, id, name } = await waitingDomain();
    const before = await showDomain(db, owner, id);
    dns.setCname(name, EDGE_HOSTNAME);
    // Act
    await runDueChecks({ db, lookupRecords, now: later(FAST_RECHECK_INTERVAL_MS + 1_000) });
    // Assess
    const after = await showDomain(db, owner, id);
    expect(after).toMatchObject({ version: (before.version ?? 0) + 1, check: { route: 'found' } });
    expect((await domainEvents(owner)).at(-1)).toMatchObject({ type: 'domain.updated' });
    expect(dueIn(after)).toBe(FAST_RECHECK_INTERVAL_MS);
  });

  it('tells the feed at every check while the certificate is provisioning, so the sync looks again', async () => {
    // Prepare
    const { owner, id } = await activeDomain();
    await recordServing(db, owner, id, { state: 'provisioning' });
    const before = await showDomain(db, owner, id);
    // Act
    await runDueChecks({ db, lookupRecords, now: later(FAST_RECHECK_INTERVAL_MS + 1_000) });
    // Assess
    const after = await showDomain(db, owner, id);
    expect(after.version).toBe((before.version ?? 0) + 1);
    expect(dueIn(after)).toBe(FAST_RECHECK_INTERVAL_MS);
  });

  it('takes a domain due within the next minute, so the next 5-minute run finds one checked a moment into this one', async () => {
    // Prepare: waiting for its CNAME, checked once: due 5 minutes after that check.
    const { owner, id } = await waitingDomain();
    await runDueChecks({ db, lookupRecords, now: later(FAST_RECHECK_INTERVAL_MS + 1_000) });
    const checked = await showDomain(db, owner, id);
    // Act: the next run starts 30 s before the domain is due.
    const nextRun = new Date(Date.parse(checked.nextCheckAt ?? '') - 30_000);
    const run = await runDueChecks({ db, lookupRecords, now: () => nextRun });
    // Assess
    expect(run.checked).toBeGreaterThanOrEqual(1);
    expect(Date.parse((await showDomain(db, owner, id)).nextCheckAt ?? '')).toBeGreaterThan(
      Date.parse(checked.nextCheckAt ?? ''),
    );
  });

  it('checks hourly once 72 hours have passed since activation, and once served', async () => {
    // Prepare: one waiting for 72 hours, one served.
    const old = await waitingDomain();
    await verifiedAgo(old.owner, old.id, FAST_RECHECK_WINDOW_MS + 60_000);
    const served = await activeDomain();
    await recordServing(db, served.owner, served.id, { state: 'active' });
    // Act
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess: both due an hour after their check.
    for (const { owner, id } of [old, served]) {
      const after = await showDomain(db, owner, id);
      expect(Date.parse(after.nextCheckAt ?? '') - Date.now()).toBeGreaterThan(RECHECK_INTERVAL_MS - 60_000);
    }
  });
});

describe('backfillDueChecks', () => {
  it('puts active domains stored before the index into it, due at once, and only once; never a pending one', async () => {
    // Prepare: a domain from before verification existed (active, no index keys) and a pending one.
    const owner = newOwner();
    const old = await storeOldShapeDomain(db, owner, newName());
    const pending = (await storeDomain(db, owner, { name: newName(), indexPage: null, notFoundPage: null })).result;
    const before = await showDomain(db, owner, old);
    // Act
    const first = await backfillDueChecks(db);
    const second = await backfillDueChecks(db);
    // Assess: indexed without a change the API would show (same version, no event).
    expect(first.added).toBeGreaterThanOrEqual(1);
    expect(second.added).toBe(0);
    const due = await dueAt(new Date());
    expect(due).toContain(`${owner}/${old}`);
    expect(due).not.toContain(`${owner}/${pending.id}`);
    const after = await showDomain(db, owner, old);
    expect(after.version).toBe(before.version);
    expect((await domainEvents(owner)).map((event) => event.type)).toEqual(['domain.created']); // the pending one's
  });

  it('then checks an older domain by its routing record alone: it has no TXT record to keep', async () => {
    // Prepare
    const owner = newOwner();
    const name = newName();
    const old = await storeOldShapeDomain(db, owner, name);
    dns.setCname(name, EDGE_HOSTNAME);
    await backfillDueChecks(db);
    // Act
    await runDueChecks({ db, lookupRecords, now: later(HOUR_MS) });
    // Assess
    const checked = await showDomain(db, owner, old);
    expect(checked.check).toEqual({ route: 'found' });
    expect(checked.status ?? 'active').toBe('active');
  });
});

describe('updated_at, when the service changes a domain on its own', () => {
  /** The domain's last event's record: what the feed (and a webhook) says the domain is now. */
  const lastEventRecord = async (owner: string) =>
    (await domainEvents(owner)).at(-1)?.payload as { record: { updatedAt: string; version: number } } | undefined;
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('moves with the version when a re-check records something new, and the event says the same', async () => {
    // Prepare
    const { owner, id, name, active } = await activeDomain();
    dns.setCname(name, 'elsewhere.example');
    await pause();
    // Act
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess
    const checked = await showDomain(db, owner, id);
    expect(checked.version).toBe((active.version ?? 0) + 1);
    expect(checked.updatedAt > active.updatedAt).toBe(true);
    expect(checked.updatedAt).toBe(checked.lastCheckedAt);
    expect((await lastEventRecord(owner))?.record).toMatchObject({
      updatedAt: checked.updatedAt,
      version: checked.version,
    });
  });

  it('stays when a re-check finds what the last one found (no new version either)', async () => {
    // Prepare
    const { owner, id } = await activeDomain();
    await recordServing(db, owner, id, { state: 'active' });
    const before = await showDomain(db, owner, id);
    // Act
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    // Assess
    const after = await showDomain(db, owner, id);
    expect(after).toMatchObject({ version: before.version, updatedAt: before.updatedAt });
  });

  it('moves when the edge records that it serves the domain, or that it failed to', async () => {
    // Prepare
    const { owner, id, active } = await activeDomain();
    await pause();
    // Act
    await recordServing(db, owner, id, { state: 'active' });
    const served = await showDomain(db, owner, id);
    await pause();
    await recordServing(db, owner, id, { state: 'failed', failure: 'certificate_failed' });
    const failed = await showDomain(db, owner, id);
    // Assess
    expect(served.version).toBe((active.version ?? 0) + 1);
    expect(served.updatedAt > active.updatedAt).toBe(true);
    expect(failed.updatedAt > served.updatedAt).toBe(true);
    expect((await lastEventRecord(owner))?.record).toMatchObject({ updatedAt: failed.updatedAt });
  });

  it('moves when a verification checks an active domain again, or records a failed check', async () => {
    // Prepare
    const { owner, id, name, active } = await activeDomain();
    await pause();
    // Act: checked again with the record in place (a 200), then with it gone (a 422, the check recorded)
    const again = (await verifyDomain(db, lookupRecords, owner, id)).result;
    dns.setTxt(verificationName(name), ['someone-else']);
    await pause();
    await verifyDomain(db, lookupRecords, owner, id).catch(() => undefined);
    const mismatched = await showDomain(db, owner, id);
    // Assess
    expect(again.updatedAt > active.updatedAt).toBe(true);
    expect(again.updatedAt).toBe(again.lastCheckedAt);
    expect(mismatched.version).toBe((again.version ?? 0) + 1);
    expect(mismatched.updatedAt).toBe(mismatched.lastCheckedAt);
  });

  it('moves when a domain returns to pending after its TXT record stayed missing', async () => {
    // Prepare
    const { owner, id, name } = await activeDomain();
    dns.setTxt(verificationName(name), []);
    await runDueChecks({ db, lookupRecords, now: later(2 * HOUR_MS) });
    await missingSince(owner, id, TXT_GRACE_MS + HOUR_MS);
    const before = await showDomain(db, owner, id);
    await pause();
    // Act
    await runDueChecks({ db, lookupRecords, now: later(4 * HOUR_MS) });
    // Assess
    const demoted = await showDomain(db, owner, id);
    expect(demoted.status).toBe('pending');
    expect(demoted.updatedAt > before.updatedAt).toBe(true);
  });
});
