/**
 * Where a host is served from (lib/edge/data/edge-shards.ts, lib/edge/sync.ts), against DynamoDB Local: a domain is
 * placed once, on the least full shard with room, its count and its `edgeShard` moved in one transaction, so
 * syncs placing it at once agree and count it once; a domain the sync served before shards existed (its item in
 * that shape: `serving` recorded, no `edgeShard`) stays on shard 0; a domain no shard has room for is
 * `failed: capacity`. Deleting a placed domain gives its place back once, in the delete's transaction, never
 * below 0, whatever placement, update or delete meets it: each shard's count is its live placed domains.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { ItemNotFound } from '#lib/data/errors.ts';
import { itemKey } from '#lib/data/keys.ts';
import {
  destroyDomain,
  edgeSyncDeps,
  showDomain,
  storeDomain,
  updateDomain,
  verifyDomain,
} from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import { placeDomain, shardCounts } from '#lib/edge/data/edge-shards.ts';
import { syncHost } from '#lib/edge/sync.ts';
import { config, db as sharedDb } from '#test/support/database.ts';

/** A table of its own: the shards' counts are the table's. */
async function freshDb() {
  const tableName = `edge-shards-${randomUUID()}`;
  await ensureTable(inject('dynamoEndpoint') as string, tableName);
  return createDb({ ...config, tableName });
}

async function activeDomain(db = sharedDb) {
  const owner = `owner-${randomUUID()}`;
  const name = `shard-${randomUUID().slice(0, 8)}.example`;
  const stored = (await storeDomain(db, owner, { name, indexPage: 'https://a.example/', notFoundPage: null })).result;
  const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
  await verifyDomain(db, found, owner, stored.id);
  return { owner, name, id: stored.id };
}

const itemOf = async (db: typeof sharedDb, owner: string, id: number) =>
  (await db.client.send(new GetCommand({ TableName: db.tableName, Key: itemKey(owner, 'domain', id) }))).Item;

describe('placing a domain on an edge shard', () => {
  it('keeps a domain served before shards (serving recorded, no edgeShard) on shard 0, and counts it there', async () => {
    // Prepare: the item as the sync left it before shards: served, its entry in the one store there was
    const db = await freshDb();
    const { owner, name, id } = await activeDomain(db);
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(owner, 'domain', id),
        UpdateExpression: 'SET serving = :active',
        ExpressionAttributeValues: { ':active': 'active' },
      }),
    );
    const shards = [new LocalKeyValueStore(), new LocalKeyValueStore()];
    await shards[0]?.put(name, { s: 'active', i: 'https://a.example/', n: '', t: 1 }, '"0"');
    // Act: a sync with two shards, shard 1 emptier
    const outcome = await syncHost({ ...edgeSyncDeps(db), shards, now: () => 2 }, name);
    // Assess
    expect(outcome).toBe('unchanged');
    expect((await itemOf(db, owner, id))?.edgeShard).toBe(0);
    expect(shards[1]?.size).toBe(0);
    expect(await shardCounts(db, 2)).toEqual([1, 0]);
    expect((await showDomain(db, owner, id)).serving).toBe('active');
  });

  it('places a new domain on the least full shard, once, however many syncs place it at once', async () => {
    // Prepare: shard 0 has a host already
    const db = await freshDb();
    const first = await activeDomain(db);
    await placeDomain(db, first, { shards: 2, capacity: 10 });
    const second = await activeDomain(db);
    // Act
    const placements = await Promise.all(
      Array.from({ length: 6 }, () => placeDomain(db, second, { shards: 2, capacity: 10 })),
    );
    // Assess
    expect(new Set(placements.map((placement) => JSON.stringify(placement)))).toEqual(
      new Set([JSON.stringify({ shard: 1 })]),
    );
    expect(await shardCounts(db, 2)).toEqual([1, 1]);
    expect((await itemOf(db, second.owner, second.id))?.edgeShard).toBe(1);
  });

  it('records failed: capacity for a domain no shard has room for, and writes nothing for it', async () => {
    // Prepare: one shard with room for one host, taken
    const db = await freshDb();
    const store = new LocalKeyValueStore();
    const deps = { ...edgeSyncDeps(db), shards: [store], shardCapacity: 1 };
    const taken = await activeDomain(db);
    await syncHost(deps, taken.name);
    const { owner, name, id } = await activeDomain(db);
    // Act
    const outcome = await syncHost(deps, name);
    // Assess
    expect(outcome).toBe('capacity');
    const shown = await showDomain(db, owner, id);
    expect([shown.serving, shown.servingFailure, shown.edgeShard]).toEqual(['failed', 'capacity', undefined]);
    expect(store.size).toBe(1);
  });
});

type Domain = Awaited<ReturnType<typeof activeDomain>>;
type Db = typeof sharedDb;
type TransactItems = { TransactItems?: { Delete?: unknown; Put?: unknown; Update?: { UpdateExpression?: string } }[] };

/** Runs `meanwhile` once, before the first transaction `matches` picks is sent: what another process did. */
function beforeFirst(db: Db, matches: (input: TransactItems) => boolean, meanwhile: () => Promise<unknown>) {
  let ran = false;
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!ran && context.commandName === 'TransactWriteItemsCommand' && matches(args.input as TransactItems)) {
        ran = true;
        await meanwhile();
      }
      return next(args);
    },
    { step: 'initialize', name: `meanwhile-${randomUUID()}` },
  );
  return () => ran;
}

const deletes = (input: TransactItems) => input.TransactItems?.some((part) => part.Delete) ?? false;
const places = (input: TransactItems) =>
  input.TransactItems?.some((part) => part.Update?.UpdateExpression?.includes('edgeShard')) ?? false;
const puts = (input: TransactItems) => input.TransactItems?.some((part) => part.Put) ?? false;

/** Each shard's live placed domains, read from the items that are left. */
async function liveCounts(db: Db, domains: readonly Domain[], shards: number) {
  const counts = Array.from({ length: shards }, () => 0);
  for (const { owner, id } of domains) {
    const shard = (await itemOf(db, owner, id))?.edgeShard;
    if (typeof shard === 'number') counts[shard] = (counts[shard] ?? 0) + 1;
  }
  return counts;
}

const gone = (db: Db, { owner, id }: Domain) =>
  showDomain(db, owner, id).then(
    () => false,
    (error) => error instanceof ItemNotFound,
  );

describe('giving a shard its place back when a domain is deleted', () => {
  it("counts each shard's live placed domains through deletes one by one, at once and repeated", async () => {
    // Prepare: 9 domains placed over 3 shards, and one never placed (no `edgeShard`, as items from before shards)
    const db = await freshDb();
    const placed = [];
    for (let n = 0; n < 9; n++) {
      const domain = await activeDomain(db);
      await placeDomain(db, domain, { shards: 3, capacity: 10 });
      placed.push(domain);
    }
    const unplaced = await activeDomain(db);
    expect(await shardCounts(db, 3)).toEqual([3, 3, 3]);
    // Act: two deleted one after the other, four at once, one three times at once, and the unplaced one
    const [first, second, ...rest] = placed as [Domain, Domain, ...Domain[]];
    await destroyDomain(db, first.owner, first.id);
    await destroyDomain(db, second.owner, second.id);
    const atOnce = rest.slice(0, 4);
    await Promise.all(atOnce.map(({ owner, id }) => destroyDomain(db, owner, id)));
    const repeated = rest[4] as Domain;
    const attempts = await Promise.allSettled([1, 2, 3].map(() => destroyDomain(db, repeated.owner, repeated.id)));
    await destroyDomain(db, unplaced.owner, unplaced.id);
    // Assess
    expect(attempts.filter(({ status }) => status === 'fulfilled').length).toBe(1);
    const live = await liveCounts(db, placed, 3);
    expect(live.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(await shardCounts(db, 3)).toEqual(live);
  });

  it("gives the place back when a placement lands between the delete's read and its write", async () => {
    // Prepare: the delete's transaction is held until another sync has placed the domain
    const db = await freshDb();
    const domain = await activeDomain(db);
    const placement: { shard?: number } = {};
    const ran = beforeFirst(db, deletes, async () =>
      Object.assign(placement, await placeDomain(db, domain, { shards: 2, capacity: 10 })),
    );
    // Act
    await destroyDomain(db, domain.owner, domain.id);
    // Assess
    expect(ran()).toBe(true);
    expect(placement).toEqual({ shard: 0 });
    expect(await gone(db, domain)).toBe(true);
    expect(await shardCounts(db, 2)).toEqual([0, 0]);
  });

  it("places nothing when the delete lands between the placement's read and its write", async () => {
    // Prepare: the placement's transaction is held until the domain is deleted
    const db = await freshDb();
    const domain = await activeDomain(db);
    const ran = beforeFirst(db, places, () => destroyDomain(db, domain.owner, domain.id));
    // Act
    const placement = await placeDomain(db, domain, { shards: 2, capacity: 10 });
    // Assess
    expect(ran()).toBe(true);
    expect(placement).toEqual({ gone: true });
    expect(await shardCounts(db, 2)).toEqual([0, 0]);
  });

  it('keeps the shard of a domain placed while an update of it was in flight, and gives it back on delete', async () => {
    // Prepare: the update's transaction is held until another sync has placed the domain
    const db = await freshDb();
    const domain = await activeDomain(db);
    const ran = beforeFirst(db, puts, () => placeDomain(db, domain, { shards: 2, capacity: 10 }));
    // Act
    await updateDomain(db, domain.owner, domain.id, { indexPage: 'https://b.example/' });
    const updated = await itemOf(db, domain.owner, domain.id);
    const counted = await shardCounts(db, 2);
    await destroyDomain(db, domain.owner, domain.id);
    // Assess
    expect(ran()).toBe(true);
    expect([updated?.indexPage, updated?.edgeShard, counted]).toEqual(['https://b.example/', 0, [1, 0]]);
    expect(await shardCounts(db, 2)).toEqual([0, 0]);
  });

  it('deletes a placed domain whose count is already 0 and leaves the count at 0', async () => {
    // Prepare: a placed domain, its shard's count set to 0 by hand
    const db = await freshDb();
    const domain = await activeDomain(db);
    await placeDomain(db, domain, { shards: 1, capacity: 10 });
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: { pk: 'EDGESHARD', sk: 'SHARD#0' },
        UpdateExpression: 'SET hosts = :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    // Act
    await destroyDomain(db, domain.owner, domain.id);
    // Assess
    expect(await gone(db, domain)).toBe(true);
    expect(await shardCounts(db, 1)).toEqual([0]);
  });

  it('agrees with the live domains when each of many is placed and deleted at once', async () => {
    // Prepare: 8 domains raced (placed and deleted at once), 4 placed only
    const db = await freshDb();
    const raced = await Promise.all(Array.from({ length: 8 }, () => activeDomain(db)));
    const kept = await Promise.all(Array.from({ length: 4 }, () => activeDomain(db)));
    // Act
    await Promise.all([
      ...raced.flatMap((domain) => [
        placeDomain(db, domain, { shards: 2, capacity: 100 }),
        destroyDomain(db, domain.owner, domain.id),
      ]),
      ...kept.map((domain) => placeDomain(db, domain, { shards: 2, capacity: 100 })),
    ]);
    // Assess
    expect((await Promise.all(raced.map((domain) => gone(db, domain)))).every(Boolean)).toBe(true);
    const live = await liveCounts(db, kept, 2);
    expect(live.reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(await shardCounts(db, 2)).toEqual(live);
  });
});
