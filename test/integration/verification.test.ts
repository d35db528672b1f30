/**
 * Domain verification in the data module, against DynamoDB Local and a real DNS server on 127.0.0.1: who holds
 * a name (pending, active, stored before verification existed), the atomic activation, and deletes racing
 * verifications. The consistency checker runs after each test.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '#lib/data/dynamodb.ts';
import { ItemNotFound, NameTaken, VerificationMismatch } from '#lib/data/errors.ts';
import { countItems } from '#lib/data/listing.ts';
import { DnsUnavailableError } from '#lib/dns/errors.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { destroyDomain, showDomain, storeDomain, updateDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import { expectConsistent, injectFault } from '#test/reliability/helpers.ts';
import { config, db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { storeOldShapeDomain } from '#test/support/domains.ts';
import { rejection } from '#test/support/fixtures.ts';

let dns: DnsTestServer;
let lookupRecords: LookupRecords;
let touched: { owners: string[]; names: string[] };

beforeAll(async () => {
  dns = await startDnsServer();
  lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address], timeoutMs: 250, tries: 2 }), EDGE_HOSTNAME);
});
afterAll(() => dns?.close());
afterEach(async () => {
  await expectConsistent(touched.owners, { domainNames: touched.names });
});

const EDGE_HOSTNAME = 'edge.test';
const newOwner = () => `owner-${randomUUID()}`;
const newName = () => `verify-${randomUUID().slice(0, 8)}.example`;

/** Two owners and a name, checked after the test. */
function begin() {
  const [alice, bob, name] = [newOwner(), newOwner(), newName()];
  touched = { owners: [alice, bob], names: [name] };
  return { alice, bob, name };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const plain = (name: string) => ({ name, indexPage: null, notFoundPage: null });

/** Publishes the tokens of these stored domains (same name) at their verification name. */
const publish = (...items: { name: string; verificationToken?: string }[]) =>
  dns.setTxt(
    verificationName(items[0]?.name ?? ''),
    items.map((item) => item.verificationToken ?? ''),
  );

describe('verifyDomain', () => {
  it('activates a pending domain whose record holds its token, taking the global name', async () => {
    // Prepare
    const { alice, bob, name } = begin();
    const stored = (await storeDomain(db, alice, plain(name))).result;
    publish(stored);
    // Act
    const active = (await verifyDomain(db, lookupRecords, alice, stored.id)).result;
    // Assess
    expect(active).toMatchObject({
      status: 'active',
      verifiedAt: expect.any(String),
      lastCheckedAt: active.verifiedAt,
    });
    expect(await showDomain(db, alice, stored.id)).toEqual(active);
    expect(await rejection(storeDomain(db, bob, plain(name)))).toBeInstanceOf(NameTaken);
  });

  it('records a check that found another value, and changes nothing else', async () => {
    // Prepare
    const { alice, name } = begin();
    const stored = (await storeDomain(db, alice, plain(name))).result;
    dns.setTxt(verificationName(stored.name), ['not-it']);
    // Act
    const error = await rejection(verifyDomain(db, lookupRecords, alice, stored.id));
    // Assess
    expect(error).toBeInstanceOf(VerificationMismatch);
    expect((error as VerificationMismatch).mismatch).toEqual({
      name: `_ds-challenge.${name}`,
      expected: stored.verificationToken,
      found: ['not-it'],
    });
    // The check is part of the representation: a new version (and ETag) and updated_at, nothing else changed.
    // The route lookup got NXDOMAIN: the CNAME is missing too.
    const shown = await showDomain(db, alice, stored.id);
    expect(shown).toEqual({
      ...stored,
      lastCheckedAt: expect.any(String),
      check: { txt: 'wrong', route: 'missing', txtMissingSince: expect.any(String) },
      version: 2,
      updatedAt: shown.lastCheckedAt,
    });
  });

  it('writes nothing when DNS does not answer', async () => {
    // Prepare
    const { alice, name } = begin();
    const stored = (await storeDomain(db, alice, plain(name))).result;
    dns.setMode(verificationName(stored.name), 'servfail');
    // Act
    const error = await rejection(verifyDomain(db, lookupRecords, alice, stored.id));
    // Assess
    expect(error).toBeInstanceOf(DnsUnavailableError);
    expect(await showDomain(db, alice, stored.id)).toEqual(stored);
  });

  it('answers 404 without a lookup for a domain that is not the owner’s', async () => {
    // Prepare
    const { alice, bob, name } = begin();
    const stored = (await storeDomain(db, alice, plain(name))).result;
    publish(stored);
    // Act / Assess
    await expect(verifyDomain(db, lookupRecords, bob, stored.id)).rejects.toBeInstanceOf(ItemNotFound);
    expect(dns.queries(verificationName(stored.name))).toBe(0);
  });

  it('deletes racing verifications never leave a name held by a deleted domain', async () => {
    // Prepare: 8 owners, each with a pending domain of its own name, published.
    const pairs = Array.from({ length: 8 }, () => ({ owner: newOwner(), name: newName() }));
    touched = { owners: pairs.map((pair) => pair.owner), names: pairs.map((pair) => pair.name) };
    const stored = await Promise.all(
      pairs.map(async ({ owner, name }) => ({ owner, item: (await storeDomain(db, owner, plain(name))).result })),
    );
    for (const { item } of stored) publish(item);
    // Act: each domain is verified and deleted at about the same time, the delete a little later each time,
    // so that some deletes read a pending domain that a verification activates before the delete commits.
    const outcomes = await Promise.all(
      stored.map(({ owner, item }, index) =>
        Promise.allSettled([
          verifyDomain(db, lookupRecords, owner, item.id),
          sleep(index * 15).then(() => destroyDomain(db, owner, item.id)),
        ]),
      ),
    );
    // Assess: every delete succeeded; a verification either came first or found the domain gone.
    for (const [verified, deleted] of outcomes) {
      expect(deleted.status).toBe('fulfilled');
      if (verified.status === 'rejected') expect(verified.reason).toBeInstanceOf(ItemNotFound);
    }
    for (const { owner } of stored) expect(await countItems(db, owner, 'domain')).toBe(0);
  });
});

describe('a delete that read a pending domain which is verified before the delete commits', () => {
  it('reads it again and releases the global name too', async () => {
    // Prepare
    const { alice, bob, name } = begin();
    const stored = (await storeDomain(db, alice, plain(name))).result;
    publish(stored);
    let verified: unknown;
    // Another process's change: this process commits one change of an owner at a time (lib/data/commit.ts).
    const other = createDb(config);
    const fault = injectFault({
      when: (call) =>
        call.operation === 'TransactWriteItems' && 'Delete' in ((call.body.TransactItems as object[])[0] ?? {}),
      meanwhile: (attempt) => {
        if (attempt === 1)
          return verifyDomain(other, lookupRecords, alice, stored.id).then(({ result }) => (verified = result));
        return undefined;
      },
    });
    // Act
    try {
      await destroyDomain(db, alice, stored.id);
    } finally {
      fault.remove();
    }
    // Assess: the first delete transaction was refused (the status changed), the second one freed the name.
    expect(verified).toMatchObject({ status: 'active' });
    expect(fault.attempts).toBe(2);
    await expect(storeDomain(db, bob, plain(name))).resolves.toMatchObject({ result: { status: 'pending' } });
  });
});

describe('domains stored before verification existed', () => {
  it('hold their name against the same owner and every other, until deleted', async () => {
    // Prepare
    const { alice, bob, name } = begin();
    const id = await storeOldShapeDomain(db, alice, name);
    // Act
    const own = await rejection(storeDomain(db, alice, plain(name)));
    const other = await rejection(storeDomain(db, bob, plain(name)));
    const shown = await showDomain(db, alice, id);
    const verified = (await verifyDomain(db, lookupRecords, alice, id)).result;
    await destroyDomain(db, alice, id);
    const afterDelete = (await storeDomain(db, bob, plain(name))).result;
    // Assess
    expect(own).toBeInstanceOf(NameTaken);
    expect(other).toBeInstanceOf(NameTaken);
    expect(shown).toMatchObject({ status: 'active' });
    expect(shown).not.toHaveProperty('verificationToken');
    expect(verified).toEqual(shown);
    expect(dns.queries(verificationName(name))).toBe(0);
    expect(afterDelete).toMatchObject({ name, status: 'pending' });
    expect(await countItems(db, alice, 'domain')).toBe(0);
  });

  it('keep holding only the global guard once a change wrote them in today’s shape, and let it go when deleted', async () => {
    // Prepare
    const { alice, bob, name } = begin();
    const id = await storeOldShapeDomain(db, alice, name);
    // Act: the change writes the record as read today (status active, still no token).
    const { result: changed } = await updateDomain(db, alice, id, { indexPage: 'https://example.com/' });
    const taken = await rejection(storeDomain(db, bob, plain(name)));
    await destroyDomain(db, alice, id);
    const afterDelete = (await storeDomain(db, bob, plain(name))).result;
    // Assess
    expect(changed).toMatchObject({ status: 'active', version: 1, indexPage: 'https://example.com/' });
    expect(changed).not.toHaveProperty('verificationToken');
    expect(taken).toBeInstanceOf(NameTaken);
    expect(afterDelete).toMatchObject({ name, status: 'pending' });
  });
});
