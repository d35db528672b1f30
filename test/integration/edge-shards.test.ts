/**
 * Where a host is served from (lib/edge/data/edge-shards.ts, lib/edge/sync.ts), against DynamoDB Local: a domain is
 * placed once, on the least full shard with room, its count and its `edgeShard` moved in one transaction, so
 * syncs placing it at once agree and count it once; a domain the sync served before shards existed (its item in
 * that shape: `serving` recorded, no `edgeShard`) stays on shard 0; a domain no shard has room for is
 * `failed: capacity`.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { ensureTable } from '#infra/local/dynamodb-local.ts';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { itemKey } from '#lib/data/keys.ts';
import { edgeSyncDeps, showDomain, storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
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
