import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  type ApiKeyStateError,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
} from '#lib/auth/data/key-admin.ts';
import { lineState, lookUpKey, ownerOfKey, recordKeyUse } from '#lib/auth/data/keys.ts';
import { displayPrefix, generateApiKey, hashApiKey } from '#lib/auth/rules/api-key.ts';
import { allScopes, SCOPE_CATALOGUE } from '#lib/auth/rules/scopes.ts';
import { apiKeyKey, apiKeyPrefixKey, ownerApiKeyKey } from '#lib/data/keys.ts';
import { db } from '#test/support/database.ts';
import { putOldShapeKey, secondsFromNow } from '#test/support/keys.ts';

const newOwner = () => `owner-${randomUUID()}`;

const getItem = async (Key: Record<string, unknown>) =>
  (await db.client.send(new GetCommand({ TableName: db.tableName, Key, ConsistentRead: true }))).Item;

/** The three items of a key, as stored. */
const itemsOf = async (key: string, owner: string) =>
  Promise.all([
    getItem(apiKeyKey(hashApiKey(key))),
    getItem(apiKeyPrefixKey(displayPrefix(key))),
    getItem(ownerApiKeyKey(owner, displayPrefix(key))),
  ]);

describe.concurrent('api keys data module', () => {
  it('creates a key that maps to its owner, stored only as a hash', async () => {
    // Prepare
    const owner = newOwner();
    // Act
    const { key, record } = await createApiKey(db, owner, 'ci');
    const Item = await getItem(apiKeyKey(hashApiKey(key)));
    // Assess
    expect(await ownerOfKey(db, key)).toBe(owner);
    expect(record).toMatchObject({ owner, label: 'ci', revoked: false, prefix: displayPrefix(key), state: 'active' });
    expect(Item).toMatchObject({ owner, revoked: false });
    expect(JSON.stringify(Item)).not.toContain(key);
  });

  it('gives a new key every scope and no expiry by default, with today’s scope catalogue, on all three items', async () => {
    // Prepare
    const owner = newOwner();
    // Act
    const { key, record } = await createApiKey(db, owner, 'default');
    // Assess
    expect(record).toMatchObject({ scopes: [...allScopes], expiresAt: null, lastUsedAt: null, scopeCatalogue: 2 });
    for (const item of await itemsOf(key, owner)) {
      expect(item?.scopes).toEqual([...allScopes]);
      expect(item?.scopeCatalogue).toBe(SCOPE_CATALOGUE);
      expect(item).not.toHaveProperty('expiresAt');
      expect(item).not.toHaveProperty('lineage');
    }
    expect(await lookUpKey(db, hashApiKey(key))).toEqual({
      found: true,
      owner,
      prefix: displayPrefix(key),
      lineage: displayPrefix(key),
      scopes: [...allScopes],
    });
  });

  it('gives a new key given the four scopes there were before webhooks exactly those, marked so on all three items', async () => {
    // Prepare
    const owner = newOwner();
    const four = ['domains:read', 'domains:write', 'spaces:read', 'spaces:write'] as const;
    // Act
    const { key, record } = await createApiKey(db, owner, 'no webhooks', { scopes: four });
    // Assess
    expect(record.scopes).toEqual(four);
    for (const item of await itemsOf(key, owner)) expect(item).toMatchObject({ scopes: four, scopeCatalogue: 2 });
    expect(await lookUpKey(db, hashApiKey(key))).toMatchObject({ found: true, scopes: four });
    expect((await listApiKeys(db, owner))[0]?.scopes).toEqual(four);
  });

  it('stores the scopes and expiry it is given on all three items', async () => {
    // Prepare
    const owner = newOwner();
    const expiresAt = secondsFromNow(3_600).toISOString();
    // Act
    const { key, record } = await createApiKey(db, owner, 'read', { scopes: ['spaces:read'], expiresAt });
    // Assess
    expect(record).toMatchObject({ scopes: ['spaces:read'], expiresAt, state: 'active' });
    for (const item of await itemsOf(key, owner)) expect(item).toMatchObject({ scopes: ['spaces:read'], expiresAt });
    expect(await lookUpKey(db, hashApiKey(key))).toMatchObject({ found: true, scopes: ['spaces:read'] });
  });

  it('refuses to create a key with no scope or an unknown one', async () => {
    // Act / Assess
    await expect(createApiKey(db, newOwner(), 'none', { scopes: [] })).rejects.toThrow(/Invalid scopes/);
    await expect(createApiKey(db, newOwner(), 'bad', { scopes: ['spaces:admin' as never] })).rejects.toThrow(
      /Invalid scopes/,
    );
  });

  it('knows no owner for an unknown key', async () => {
    // Act / Assess
    expect(await ownerOfKey(db, generateApiKey())).toBeNull();
    expect(await lookUpKey(db, hashApiKey(generateApiKey()))).toEqual({ found: false, reason: 'unknown' });
  });

  it('refuses an expired key, from the instant it expires', async () => {
    // Prepare
    const owner = newOwner();
    const expiresAt = secondsFromNow(60);
    const { key } = await createApiKey(db, owner, 'short', { expiresAt: expiresAt.toISOString() });
    const hash = hashApiKey(key);
    // Act
    const before = await lookUpKey(db, hash, new Date(expiresAt.getTime() - 1));
    const at = await lookUpKey(db, hash, expiresAt);
    // Assess
    expect(before.found).toBe(true);
    expect(at).toEqual({ found: false, reason: 'expired', prefix: displayPrefix(key) });
  });

  it('lists an owner’s keys without the key itself', async () => {
    // Prepare
    const owner = newOwner();
    const first = await createApiKey(db, owner, 'first');
    const second = await createApiKey(db, owner, 'second');
    await createApiKey(db, newOwner(), 'someone else');
    // Act
    const records = await listApiKeys(db, owner);
    // Assess
    expect(records).toHaveLength(2);
    expect(records.map((record) => record.label).sort()).toEqual(['first', 'second']);
    expect(records.map((record) => record.prefix).sort()).toEqual([first.record.prefix, second.record.prefix].sort());
    const listed = JSON.stringify(records);
    expect(listed).not.toContain(first.key);
    expect(listed).not.toContain(second.key);
    expect(listed).not.toContain(hashApiKey(first.key));
  });

  it('lists prefix, label, scopes, created, expires, last used and state of each key', async () => {
    // Prepare: an active key used once, a read-only one expiring later, one expired, one revoked.
    const owner = newOwner();
    const used = await createApiKey(db, owner, 'used');
    const usedAt = new Date();
    await recordKeyUse(db, hashApiKey(used.key), usedAt);
    const later = secondsFromNow(86_400).toISOString();
    const reader = await createApiKey(db, owner, 'reader', {
      scopes: ['domains:read', 'spaces:read'],
      expiresAt: later,
    });
    const soon = secondsFromNow(60);
    const expired = await createApiKey(db, owner, 'expired', { expiresAt: soon.toISOString() });
    const revoked = await createApiKey(db, owner, 'revoked');
    await revokeApiKey(db, revoked.record.prefix);
    // Act
    const records = await listApiKeys(db, owner, new Date(soon.getTime() + 1));
    // Assess
    const byLabel = Object.fromEntries(records.map((record) => [record.label, record]));
    expect(Object.keys(byLabel)).toEqual(['used', 'reader', 'expired', 'revoked']);
    expect(byLabel.used).toEqual({
      prefix: used.record.prefix,
      owner,
      label: 'used',
      scopes: [...allScopes],
      scopeCatalogue: SCOPE_CATALOGUE,
      lineage: used.record.prefix,
      createdAt: used.record.createdAt,
      expiresAt: null,
      lastUsedAt: usedAt.toISOString(),
      revoked: false,
      state: 'active',
    });
    expect(byLabel.reader).toMatchObject({
      scopes: ['domains:read', 'spaces:read'],
      expiresAt: later,
      lastUsedAt: null,
      state: 'active',
    });
    expect(byLabel.expired).toMatchObject({ prefix: expired.record.prefix, state: 'expired', revoked: false });
    expect(byLabel.revoked).toMatchObject({ prefix: revoked.record.prefix, state: 'revoked', revoked: true });
    expect(byLabel.reader?.prefix).toBe(reader.record.prefix);
  });

  it('revokes a key by its prefix, leaving the owner’s other keys working', async () => {
    // Prepare
    const owner = newOwner();
    const revoked = await createApiKey(db, owner, 'old');
    const kept = await createApiKey(db, owner, 'new');
    // Act
    const done = await revokeApiKey(db, revoked.record.prefix);
    // Assess
    expect(done).toBe(true);
    expect(await ownerOfKey(db, revoked.key)).toBeNull();
    expect(await lookUpKey(db, hashApiKey(revoked.key))).toMatchObject({ found: false, reason: 'revoked' });
    expect(await ownerOfKey(db, kept.key)).toBe(owner);
    const records = await listApiKeys(db, owner);
    expect(records.find((record) => record.prefix === revoked.record.prefix)?.revoked).toBe(true);
    expect(records.find((record) => record.prefix === kept.record.prefix)?.revoked).toBe(false);
  });

  it('answers false when revoking an unknown prefix', async () => {
    // Act / Assess
    expect(await revokeApiKey(db, 'dsk_nothere')).toBe(false);
  });

  it.each(['', 'has space', 'slash/owner', '#hash', 'x'.repeat(65)])('refuses the owner id %j', async (owner) => {
    // Act / Assess
    await expect(createApiKey(db, owner, 'x')).rejects.toThrow(/Invalid owner id/);
  });
});

describe.concurrent('last use', () => {
  it('is written on the hash item, then at most once per resolution, and never moved back', async () => {
    // Prepare
    const { key } = await createApiKey(db, newOwner(), 'used');
    const hash = hashApiKey(key);
    const first = new Date();
    // Act
    const wrote = await recordKeyUse(db, hash, first, 60);
    const again = await recordKeyUse(db, hash, new Date(first.getTime() + 30_000), 60);
    const earlier = await recordKeyUse(db, hash, new Date(first.getTime() - 120_000), 0);
    const stored = (await getItem(apiKeyKey(hash)))?.lastUsedAt;
    const later = new Date(first.getTime() + 61_000);
    const afterResolution = await recordKeyUse(db, hash, later, 60);
    // Assess
    expect([wrote, again, earlier, afterResolution]).toEqual([true, false, false, true]);
    expect(stored).toBe(first.toISOString());
    expect((await getItem(apiKeyKey(hash)))?.lastUsedAt).toBe(later.toISOString());
  });

  it('is not written for an unknown, revoked or expired key, and creates no item', async () => {
    // Prepare
    const owner = newOwner();
    const unknown = hashApiKey(generateApiKey());
    const revoked = await createApiKey(db, owner, 'revoked');
    await revokeApiKey(db, revoked.record.prefix);
    const expired = await createApiKey(db, owner, 'expired', { expiresAt: secondsFromNow(60).toISOString() });
    // Act
    const written = await Promise.all([
      recordKeyUse(db, unknown),
      recordKeyUse(db, hashApiKey(revoked.key)),
      recordKeyUse(db, hashApiKey(expired.key), secondsFromNow(120)),
    ]);
    // Assess
    expect(written).toEqual([false, false, false]);
    expect(await getItem(apiKeyKey(unknown))).toBeUndefined();
    expect((await getItem(apiKeyKey(hashApiKey(revoked.key))))?.lastUsedAt).toBeUndefined();
  });
});

describe.concurrent('keys written before scopes and expiry', () => {
  it('keep working with every scope and no expiry, are listed as such, and record their use', async () => {
    // Prepare
    const owner = newOwner();
    const { key, prefix } = await putOldShapeKey(db, owner, 'legacy');
    // Act
    const found = await lookUpKey(db, hashApiKey(key), secondsFromNow(10 * 365 * 86_400));
    const recorded = await recordKeyUse(db, hashApiKey(key));
    const [record] = await listApiKeys(db, owner);
    // Assess
    expect(found).toEqual({ found: true, owner, prefix, lineage: prefix, scopes: [...allScopes] });
    expect(recorded).toBe(true);
    expect(record).toMatchObject({
      prefix,
      label: 'legacy',
      scopes: [...allScopes],
      scopeCatalogue: null,
      expiresAt: null,
      state: 'active',
    });
    expect(record?.lastUsedAt).toMatch(/^\d{4}-/);
  });

  it('can be revoked and rotated', async () => {
    // Prepare
    const owner = newOwner();
    const revoked = await putOldShapeKey(db, owner, 'to revoke');
    const rotated = await putOldShapeKey(db, owner, 'to rotate');
    // Act
    await revokeApiKey(db, revoked.prefix);
    const next = await rotateApiKey(db, rotated.prefix, { graceSeconds: 3_600 });
    // Assess
    expect(await lookUpKey(db, hashApiKey(revoked.key))).toMatchObject({ found: false, reason: 'revoked' });
    expect(next.record).toMatchObject({ owner, label: 'to rotate', scopes: [...allScopes], expiresAt: null });
    expect(await lookUpKey(db, hashApiKey(rotated.key))).toMatchObject({ found: true });
    expect(await lookUpKey(db, hashApiKey(rotated.key), secondsFromNow(3_601))).toMatchObject({ reason: 'expired' });
  });
});

describe.concurrent('rotation', () => {
  it('makes a new key with the same owner, label and scopes, and expires the old one after the grace', async () => {
    // Prepare
    const owner = newOwner();
    const old = await createApiKey(db, owner, 'ci', { scopes: ['domains:read', 'spaces:write'] });
    const now = new Date();
    // Act
    const { key, record, previous } = await rotateApiKey(db, old.record.prefix, { graceSeconds: 7_200, now });
    // Assess
    const graceEnd = new Date(now.getTime() + 7_200_000);
    expect(record).toMatchObject({ owner, label: 'ci', scopes: ['domains:read', 'spaces:write'], expiresAt: null });
    expect(record.prefix).not.toBe(old.record.prefix);
    expect(previous).toMatchObject({ prefix: old.record.prefix, expiresAt: graceEnd.toISOString(), state: 'active' });
    expect(await lookUpKey(db, hashApiKey(key))).toMatchObject({ found: true, owner, scopes: record.scopes });
    expect(await lookUpKey(db, hashApiKey(old.key), new Date(graceEnd.getTime() - 1))).toMatchObject({ found: true });
    expect(await lookUpKey(db, hashApiKey(old.key), graceEnd)).toMatchObject({ found: false, reason: 'expired' });
    for (const item of await itemsOf(old.key, owner)) expect(item?.expiresAt).toBe(graceEnd.toISOString());
    expect((await listApiKeys(db, owner)).map((listed) => listed.prefix)).toEqual([old.record.prefix, record.prefix]);
  });

  it('defaults to a 24 h grace; a grace of 0 stops the old key at once', async () => {
    // Prepare
    const owner = newOwner();
    const first = await createApiKey(db, owner, 'a');
    const second = await createApiKey(db, owner, 'b');
    const now = new Date();
    // Act
    const byDefault = await rotateApiKey(db, first.record.prefix, { now });
    await rotateApiKey(db, second.record.prefix, { graceSeconds: 0 });
    // Assess
    expect(byDefault.previous.expiresAt).toBe(new Date(now.getTime() + 86_400_000).toISOString());
    expect(await lookUpKey(db, hashApiKey(second.key))).toMatchObject({ found: false, reason: 'expired' });
  });

  it('keeps an old key’s sooner expiry, and gives the new key the old one’s lifetime unless told otherwise', async () => {
    // Prepare: created now, expiring in 1 h (a lifetime of 1 h).
    const owner = newOwner();
    const created = new Date();
    const expiresAt = new Date(created.getTime() + 3_600_000).toISOString();
    const old = await createApiKey(db, owner, 'short', { expiresAt, now: created });
    const other = await createApiKey(db, owner, 'other', { expiresAt, now: created });
    const now = new Date(created.getTime() + 60_000);
    const chosen = new Date(now.getTime() + 86_400_000).toISOString();
    // Act
    const inherited = await rotateApiKey(db, old.record.prefix, { now });
    const told = await rotateApiKey(db, other.record.prefix, { now, expiresAt: chosen });
    // Assess
    expect(inherited.previous.expiresAt).toBe(expiresAt);
    expect(inherited.record.expiresAt).toBe(new Date(now.getTime() + 3_600_000).toISOString());
    expect(told.record.expiresAt).toBe(chosen);
  });

  it('refuses an unknown, revoked or expired key, and writes nothing', async () => {
    // Prepare
    const owner = newOwner();
    const revoked = await createApiKey(db, owner, 'revoked');
    await revokeApiKey(db, revoked.record.prefix);
    const expired = await createApiKey(db, owner, 'expired', { expiresAt: secondsFromNow(60).toISOString() });
    // Act
    const outcomes = await Promise.all(
      [
        rotateApiKey(db, 'dsk_nothere'),
        rotateApiKey(db, revoked.record.prefix),
        rotateApiKey(db, expired.record.prefix, { now: secondsFromNow(120) }),
      ].map((rotation) =>
        rotation.then(
          () => 'rotated',
          (error: ApiKeyStateError) => error.reason,
        ),
      ),
    );
    // Assess
    expect(outcomes).toEqual(['not-found', 'revoked', 'expired']);
    expect(await listApiKeys(db, owner)).toHaveLength(2);
  });

  it('is atomic under concurrent rotations of one key: every new key works, the old one’s expiry is one of theirs', async () => {
    // Prepare
    const owner = newOwner();
    const old = await createApiKey(db, owner, 'raced', { scopes: ['spaces:read'] });
    // Act
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, index) => rotateApiKey(db, old.record.prefix, { graceSeconds: 600 + index })),
    );
    // Assess
    const rotated = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(rotated.length).toBeGreaterThan(0);
    for (const { key } of rotated) expect(await lookUpKey(db, hashApiKey(key))).toMatchObject({ found: true });
    const listed = await listApiKeys(db, owner);
    expect(listed).toHaveLength(1 + rotated.length);
    const expiries = new Set((await itemsOf(old.key, owner)).map((item) => item?.expiresAt));
    expect(expiries.size).toBe(1);
    expect(rotated.map((result) => result.previous.expiresAt)).toContain([...expiries][0]);
  });
});

describe.concurrent('rotation lines and scopes', () => {
  it('keeps the line: the new key stores its line, the first key its newest, and the line follows each rotation', async () => {
    // Prepare
    const owner = newOwner();
    const first = await createApiKey(db, owner, 'line', { scopes: ['spaces:read', 'webhooks:write'] });
    const now = new Date();
    // Act
    const second = await rotateApiKey(db, first.record.prefix, { graceSeconds: 60, now });
    const third = await rotateApiKey(db, second.record.prefix, { graceSeconds: 60, now });
    // Assess: every key of the line names the first; the first's items name the newest.
    for (const rotated of [second, third]) {
      expect(rotated.record).toMatchObject({ lineage: first.record.prefix, scopeCatalogue: SCOPE_CATALOGUE });
      for (const item of await itemsOf(rotated.key, owner)) expect(item?.lineage).toBe(first.record.prefix);
      expect(await lookUpKey(db, hashApiKey(rotated.key))).toMatchObject({ lineage: first.record.prefix });
    }
    expect((await getItem(apiKeyPrefixKey(first.record.prefix)))?.head).toBe(third.record.prefix);
    // The line is as its newest key: active, with its scopes, past both graces.
    const later = new Date(now.getTime() + 120_000);
    expect(await lookUpKey(db, hashApiKey(first.key), later)).toMatchObject({ reason: 'expired' });
    expect(await lineState(db, first.record.prefix, later)).toEqual({
      state: 'active',
      scopes: ['spaces:read', 'webhooks:write'],
    });
  });

  it('ends the line when its newest key is revoked or expires, not when an older one is', async () => {
    // Prepare
    const owner = newOwner();
    const first = await createApiKey(db, owner, 'a');
    const second = await rotateApiKey(db, first.record.prefix, { graceSeconds: 3_600 });
    const lone = await createApiKey(db, owner, 'b', { expiresAt: secondsFromNow(60).toISOString() });
    // Act
    await revokeApiKey(db, first.record.prefix);
    const afterOldRevoked = await lineState(db, first.record.prefix);
    await revokeApiKey(db, second.record.prefix);
    // Assess
    expect(afterOldRevoked.state).toBe('active');
    expect(await lineState(db, first.record.prefix)).toEqual({ state: 'revoked' });
    expect(await lineState(db, lone.record.prefix, secondsFromNow(120))).toEqual({ state: 'expired' });
    expect(await lineState(db, 'dsk_nothere1')).toEqual({ state: 'revoked' });
  });

  it('may narrow a key on rotation, never widen it', async () => {
    // Prepare
    const owner = newOwner();
    const old = await createApiKey(db, owner, 'wide', { scopes: ['domains:read', 'spaces:read', 'spaces:write'] });
    // Act
    const narrowed = await rotateApiKey(db, old.record.prefix, { scopes: ['spaces:read'] });
    const widened = await rotateApiKey(db, narrowed.record.prefix, { scopes: ['spaces:read', 'webhooks:read'] }).then(
      () => 'rotated',
      (error: ApiKeyStateError) => `${error.reason}: ${error.message}`,
    );
    // Assess
    expect(narrowed.record.scopes).toEqual(['spaces:read']);
    expect(await lookUpKey(db, hashApiKey(narrowed.key))).toMatchObject({ found: true, scopes: ['spaces:read'] });
    expect(widened).toBe(
      `wider: Key ${narrowed.record.prefix} holds spaces:read: a rotated key may hold fewer scopes, not webhooks:read (create a new key for those).`,
    );
    expect(await listApiKeys(db, owner)).toHaveLength(2);
  });

  it('rotates a key read by the legacy rule into one that means the same, marked, and one of today’s into the same', async () => {
    // Prepare: a key of the old shape (no scopes: every scope), and the four old scopes written without a marker.
    const owner = newOwner();
    const unscoped = await putOldShapeKey(db, owner, 'before scopes');
    const four = await putOldShapeKey(db, owner, 'four, unmarked', {
      scopes: ['domains:read', 'domains:write', 'spaces:read', 'spaces:write'],
    });
    const today = await createApiKey(db, owner, 'four, today', {
      scopes: ['domains:read', 'domains:write', 'spaces:read', 'spaces:write'],
    });
    // Act
    const rotated = await Promise.all(
      [unscoped.prefix, four.prefix, today.record.prefix].map((p) => rotateApiKey(db, p)),
    );
    // Assess
    const [fromUnscoped, fromFour, fromToday] = rotated;
    expect(fromUnscoped?.record.scopes).toEqual([...allScopes]);
    expect(fromFour?.record.scopes).toEqual([...allScopes]);
    expect(fromToday?.record.scopes).toEqual(['domains:read', 'domains:write', 'spaces:read', 'spaces:write']);
    for (const { key } of rotated) {
      for (const item of await itemsOf(key, owner)) expect(item?.scopeCatalogue).toBe(SCOPE_CATALOGUE);
    }
  });
});
