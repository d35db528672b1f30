import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { displayPrefix, generateApiKey, hashApiKey } from '#lib/auth/api-key.ts';
import type { Db } from '#lib/dynamodb.ts';
import { apiKeyKey, apiKeyPrefixKey, ownerApiKeyKey, ownerPartition } from './keys.ts';
import { transactWrite } from './transact.ts';

export type ApiKeyRecord = { prefix: string; owner: string; label: string; createdAt: string; revoked: boolean };

/** Owner ids are opaque to the API; keep them printable and bounded so they are safe in keys and logs. */
export const OWNER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

/** Who holds this key, or null for an unknown or revoked key. One strongly consistent GetItem. */
export async function ownerOfKey(db: Db, key: string): Promise<string | null> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: apiKeyKey(hashApiKey(key)), ConsistentRead: true }),
  );
  if (!Item || Item.revoked === true) return null;
  return Item.owner as string;
}

/**
 * Creates a key and returns it: the only time it exists outside the caller. Three items are written in
 * one transaction: the hash (for the authorizer), the prefix (for revoking) and the owner's listing.
 */
export async function createApiKey(
  db: Db,
  owner: string,
  label: string,
): Promise<{ key: string; record: ApiKeyRecord }> {
  if (!OWNER_ID_PATTERN.test(owner)) throw new Error(`Invalid owner id "${owner}"`);
  for (;;) {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    const record: ApiKeyRecord = {
      prefix: displayPrefix(key),
      owner,
      label,
      createdAt: new Date().toISOString(),
      revoked: false,
    };
    const fresh = 'attribute_not_exists(pk)';
    const failed = await transactWrite(db, [
      {
        Put: {
          TableName: db.tableName,
          Item: { ...apiKeyKey(hash), kind: 'api-key', ...record },
          ConditionExpression: fresh,
        },
      },
      {
        Put: {
          TableName: db.tableName,
          Item: { ...apiKeyPrefixKey(record.prefix), kind: 'api-key-prefix', hash, ...record },
          ConditionExpression: fresh,
        },
      },
      {
        Put: {
          TableName: db.tableName,
          Item: { ...ownerApiKeyKey(owner, record.prefix), kind: 'owner-api-key', hash, ...record },
          ConditionExpression: fresh,
        },
      },
    ]);
    // A display-prefix collision is rare (48 random bits); draw another key.
    if (!failed) return { key, record };
  }
}

export async function listApiKeys(db: Db, owner: string): Promise<ApiKeyRecord[]> {
  const records: ApiKeyRecord[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':prefix': 'APIKEY#' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      records.push({
        prefix: item.prefix,
        owner: item.owner,
        label: item.label,
        createdAt: item.createdAt,
        revoked: item.revoked,
      });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return records;
}

/** Revokes the key with this display prefix; false when there is none. */
export async function revokeApiKey(db: Db, prefix: string): Promise<boolean> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: apiKeyPrefixKey(prefix), ConsistentRead: true }),
  );
  if (!Item) return false;
  const revoke = (Key: Record<string, unknown>) => ({
    Update: {
      TableName: db.tableName,
      Key,
      UpdateExpression: 'SET revoked = :true',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    },
  });
  await transactWrite(db, [
    revoke(apiKeyKey(Item.hash)),
    revoke(apiKeyPrefixKey(prefix)),
    revoke(ownerApiKeyKey(Item.owner, prefix)),
  ]);
  return true;
}
