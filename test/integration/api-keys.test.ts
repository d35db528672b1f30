import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey } from '#lib/auth/api-key.ts';
import { createApiKey, listApiKeys, ownerOfKey, revokeApiKey } from '#lib/data/api-keys.ts';
import { apiKeyKey } from '#lib/data/keys.ts';
import { db } from '#test/support/database.ts';

const newOwner = () => `owner-${randomUUID()}`;

describe.concurrent('api keys data module', () => {
  it('creates a key that maps to its owner, stored only as a hash', async () => {
    // Prepare
    const owner = newOwner();
    // Act
    const { key, record } = await createApiKey(db, owner, 'ci');
    const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: apiKeyKey(hashApiKey(key)) }));
    // Assess
    expect(await ownerOfKey(db, key)).toBe(owner);
    expect(record).toMatchObject({ owner, label: 'ci', revoked: false, prefix: displayPrefix(key) });
    expect(Item).toMatchObject({ owner, revoked: false });
    expect(JSON.stringify(Item)).not.toContain(key);
  });

  it('knows no owner for an unknown key', async () => {
    // Act / Assess
    expect(await ownerOfKey(db, generateApiKey())).toBeNull();
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
