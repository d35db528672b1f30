/**
 * The key tool's administration of API keys (`scripts/keys.ts`): create, list, revoke and rotate, each key's
 * three items written and changed together in transactions (see `api-keys.ts` for the items and the hot path).
 */
import { BatchGetCommand, type BatchGetCommandOutput, GetCommand } from '@aws-sdk/lib-dynamodb';
import { displayPrefix, generateApiKey, hashApiKey } from '#lib/auth/rules/api-key.ts';
import { allScopes, SCOPE_CATALOGUE, storedScopes } from '#lib/auth/rules/scopes.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { apiKeyKey, apiKeyPrefixKey, ownerApiKeyKey, ownerPartition } from '#lib/data/keys.ts';
import { paginateQuery } from '#lib/data/query.ts';
import { type Parts, transactDecided } from '#lib/data/transaction.ts';
import type { Scope } from '#lib/kinds.ts';
import { again, noWait, retrying } from '#lib/platform/retry.ts';
import { type KeyState, keyState, lineageOf, type StoredKey } from './keys.ts';

/** What the key tool shows of a key: never the key or its hash. */
export type ApiKeyRecord = {
  prefix: string;
  owner: string;
  label: string;
  /** What the key holds (`storedScopes`: as stored, upgraded on read by the catalogue it was written under). */
  scopes: Scope[];
  /** The scope catalogue it was written under; null: written before the marker, read by the legacy rule. */
  scopeCatalogue: number | null;
  /** The prefix of the first key of its rotation line (its own, if it was not made by a rotation). */
  lineage: string;
  createdAt: string;
  /** Null: never expires. */
  expiresAt: string | null;
  /** Null: not used since last use was recorded (or never). */
  lastUsedAt: string | null;
  revoked: boolean;
  state: KeyState;
};

/** Owner ids are opaque to the API; keep them printable and bounded so they are safe in keys and logs. */
export const OWNER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

/** A rotated key's default grace: the old key keeps working this long. */
export const DEFAULT_GRACE_SECONDS = 24 * 3_600;

function recordOf(item: StoredKey, now: Date, lastUsedAt = item.lastUsedAt): ApiKeyRecord {
  return {
    prefix: item.prefix,
    owner: item.owner,
    label: item.label ?? '',
    scopes: storedScopes(item),
    scopeCatalogue: typeof item.scopeCatalogue === 'number' ? item.scopeCatalogue : null,
    lineage: lineageOf(item),
    createdAt: item.createdAt,
    expiresAt: item.expiresAt ?? null,
    lastUsedAt: lastUsedAt ?? null,
    revoked: item.revoked === true,
    state: keyState(item, now),
  };
}

export type CreateKeyOptions = {
  /** Default: every scope. */
  scopes?: readonly Scope[];
  /** An ISO instant; absent: the key never expires. */
  expiresAt?: string | undefined;
  now?: Date;
};

/** A new key's item: as created, or made by a rotation (then with its line). */
type NewKeyOptions = CreateKeyOptions & { lineage?: string };

const fresh = 'attribute_not_exists(pk)';

/** A new key's three items, as named parts: by hash, by display prefix, and in the owner's listing. */
function putKey(db: Db, hash: string, item: StoredKey): Parts {
  const { owner, prefix } = item;
  const put = (key: object, kind: string, extra: object) => ({
    Put: { TableName: db.tableName, Item: { ...key, kind, ...extra, ...item }, ConditionExpression: fresh },
  });
  return {
    newHash: put(apiKeyKey(hash), 'api-key', {}),
    newPrefix: put(apiKeyPrefixKey(prefix), 'api-key-prefix', { hash }),
    newOwner: put(ownerApiKeyKey(owner, prefix), 'owner-api-key', { hash }),
  };
}

/**
 * A new key's attributes, on each of its three items: its scopes exactly as given, with the catalogue version
 * they were given under (`SCOPE_CATALOGUE`), so that a later catalogue's rule knows what they meant.
 */
function newKeyItem(owner: string, label: string, key: string, options: NewKeyOptions): StoredKey {
  const scopes = options.scopes ?? allScopes;
  if (scopes.length === 0 || scopes.some((scope) => !allScopes.includes(scope))) {
    throw new Error(`Invalid scopes ${JSON.stringify(scopes)}`);
  }
  return {
    prefix: displayPrefix(key),
    owner,
    label,
    createdAt: (options.now ?? new Date()).toISOString(),
    revoked: false,
    scopes: [...scopes],
    scopeCatalogue: SCOPE_CATALOGUE,
    ...(options.lineage ? { lineage: options.lineage } : {}),
    ...(options.expiresAt ? { expiresAt: new Date(options.expiresAt).toISOString() } : {}),
  };
}

/**
 * Creates a key and returns it: the only time it exists outside the caller. Its three items are written in
 * one transaction.
 */
export async function createApiKey(
  db: Db,
  owner: string,
  label: string,
  options: CreateKeyOptions = {},
): Promise<{ key: string; record: ApiKeyRecord }> {
  if (!OWNER_ID_PATTERN.test(owner)) throw new Error(`Invalid owner id "${owner}"`);
  // A display-prefix collision is rare (48 random bits): another key is drawn, a few times at most.
  return retrying(
    { attempts: KEY_DRAWS, delayMs: noWait },
    async () => {
      const key = generateApiKey();
      const item = newKeyItem(owner, label, key, options);
      const failed = await transactDecided(db, putKey(db, hashApiKey(key), item));
      return failed ? again : { key, record: recordOf(item, options.now ?? new Date()) };
    },
    () => new Error('Every key drawn collided with an existing one'),
  );
}

/** Draws of a new key before giving up on display-prefix collisions (each one in 2^48). */
const KEY_DRAWS = 5;

/** Rounds of a batch read before giving up on keys DynamoDB keeps leaving unprocessed. */
const BATCH_ROUNDS = 10;

/** The hash items of these keys (for their last use), by partition key. */
async function hashItems(db: Db, hashes: string[]): Promise<Map<string, StoredKey>> {
  const found = new Map<string, StoredKey>();
  for (let start = 0; start < hashes.length; start += 100) {
    let keys: Record<string, unknown>[] | undefined = hashes.slice(start, start + 100).map((hash) => apiKeyKey(hash));
    // Keys DynamoDB left unprocessed (throttling) are asked again after a short, growing pause.
    await retrying(
      { attempts: BATCH_ROUNDS, delayMs: (retry) => Math.min(1_000, 100 * 2 ** (retry - 1)) },
      async () => {
        const page: BatchGetCommandOutput = await db.client.send(
          new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: keys } } }),
        );
        for (const item of page.Responses?.[db.tableName] ?? []) found.set(String(item.pk), item as StoredKey);
        keys = page.UnprocessedKeys?.[db.tableName]?.Keys;
        return keys && keys.length > 0 ? again : undefined;
      },
      () => new Error('DynamoDB kept leaving keys unprocessed'),
    );
  }
  return found;
}

/** An owner's keys, oldest first, with their state now and their last use. */
export async function listApiKeys(db: Db, owner: string, now: Date = new Date()): Promise<ApiKeyRecord[]> {
  const listed: StoredKey[] = [];
  const input = {
    TableName: db.tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':prefix': 'APIKEY#' },
  };
  for await (const page of paginateQuery(db, input)) listed.push(...(page.items as StoredKey[]));
  const byHash = await hashItems(
    db,
    listed.flatMap((item) => (item.hash ? [item.hash] : [])),
  );
  return listed
    .map((item) => recordOf(item, now, item.hash ? byHash.get(apiKeyKey(item.hash).pk)?.lastUsedAt : undefined))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.prefix.localeCompare(b.prefix));
}

/** The prefix item: the key's hash and everything the listing shows. */
async function keyByPrefix(db: Db, prefix: string): Promise<(StoredKey & { hash: string }) | undefined> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: apiKeyPrefixKey(prefix), ConsistentRead: true }),
  );
  return Item as (StoredKey & { hash: string }) | undefined;
}

/** The three items of an existing key, to update together: by hash, by display prefix, in the owner's listing. */
const keyItems = (item: StoredKey & { hash: string }) => ({
  hash: apiKeyKey(item.hash),
  prefix: apiKeyPrefixKey(item.prefix),
  owner: ownerApiKeyKey(item.owner, item.prefix),
});

/** The same update of each of a key's items, as parts named `<role>` with a prefix (`oldHash`…). */
const updateKeyItems = (item: StoredKey & { hash: string }, prefix: string, update: (Key: object) => object) =>
  Object.fromEntries(
    Object.entries(keyItems(item)).map(([role, Key]) => [
      `${prefix}${role[0]?.toUpperCase()}${role.slice(1)}`,
      { Update: update(Key) },
    ]),
  ) as Parts;

/** Revokes the key with this display prefix; false when there is none. */
export async function revokeApiKey(db: Db, prefix: string): Promise<boolean> {
  const item = await keyByPrefix(db, prefix);
  if (!item) return false;
  await transactDecided(
    db,
    updateKeyItems(item, 'revoked', (Key) => ({
      TableName: db.tableName,
      Key,
      UpdateExpression: 'SET revoked = :true',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':true': true },
    })),
  );
  return true;
}

export class ApiKeyStateError extends Error {
  override name = 'ApiKeyStateError';
  constructor(
    readonly reason: 'not-found' | 'wider' | KeyState,
    message: string,
  ) {
    super(message);
  }
}

export type RotateOptions = {
  /** How long the old key keeps working, in seconds (default 24 h; 0: it stops now). */
  graceSeconds?: number;
  /**
   * The new key's expiry: an ISO instant, or null for none. By default the new key gets the old one's lifetime
   * (from its creation to its expiry) from now, or none if the old one had none.
   */
  expiresAt?: string | null;
  /**
   * The new key's scopes: some of the old key's (a rotation may narrow a key, never widen it: a wider key is a
   * new key). Default: the old key's, as it holds them (`storedScopes`).
   */
  scopes?: readonly Scope[];
  now?: Date;
};

const MAX_ROTATE_ATTEMPTS = 5;

/** The new key's scopes: the old key's, or fewer of them; more is refused. */
function rotatedScopes(prefix: string, held: readonly Scope[], asked: readonly Scope[] | undefined): Scope[] {
  if (asked === undefined) return [...held];
  const beyond = asked.filter((scope) => !held.includes(scope));
  if (beyond.length > 0) {
    throw new ApiKeyStateError(
      'wider',
      `Key ${prefix} holds ${held.join(', ')}: a rotated key may hold fewer scopes, not ${beyond.join(', ')} (create a new key for those).`,
    );
  }
  return [...asked];
}

/**
 * Rotates an active key: a new key with the same owner, label and scopes (or fewer, `scopes`), in the same
 * rotation line, and the old one expiring after the grace (or sooner, if it already expires sooner). One
 * transaction writes the new key's three items, sets the old key's expiry on its three, and makes the new key
 * its line's newest (`head` on the line's first key), on the condition that the old key is still as read (not
 * revoked, same expiry): a concurrent revoke or rotation makes it read again. The new key stores what the old
 * one holds, under today's catalogue: a key read by the legacy rule rotates into one that means the same.
 */
export async function rotateApiKey(
  db: Db,
  prefix: string,
  { graceSeconds = DEFAULT_GRACE_SECONDS, expiresAt, scopes, now = new Date() }: RotateOptions = {},
): Promise<{ key: string; record: ApiKeyRecord; previous: ApiKeyRecord }> {
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0) throw new Error(`Invalid grace ${graceSeconds}`);
  return retrying(
    { attempts: MAX_ROTATE_ATTEMPTS, delayMs: noWait },
    async () => {
      const old = await keyByPrefix(db, prefix);
      if (!old) throw new ApiKeyStateError('not-found', `No key with prefix ${prefix}.`);
      const state = keyState(old, now);
      if (state !== 'active') throw new ApiKeyStateError(state, `Key ${prefix} is ${state}: create a new key instead.`);

      const graceEnd = new Date(now.getTime() + graceSeconds * 1000).toISOString();
      const oldExpiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
      const lifetime = old.expiresAt ? Date.parse(old.expiresAt) - Date.parse(old.createdAt) : undefined;
      const newExpiresAt =
        expiresAt === undefined
          ? lifetime === undefined
            ? undefined
            : new Date(now.getTime() + lifetime).toISOString()
          : (expiresAt ?? undefined);

      const key = generateApiKey();
      const lineage = lineageOf(old);
      const item = newKeyItem(old.owner, old.label ?? '', key, {
        scopes: rotatedScopes(prefix, storedScopes(old), scopes),
        expiresAt: newExpiresAt,
        lineage,
        now,
      });
      const firstOfLine = lineage === old.prefix;
      const unchanged = old.expiresAt === undefined ? 'attribute_not_exists(expiresAt)' : 'expiresAt = :seen';
      const expire = updateKeyItems(old, 'old', (Key) => ({
        TableName: db.tableName,
        Key,
        // The line's first key holds its head on its items (one update per item in a transaction).
        UpdateExpression: firstOfLine ? 'SET expiresAt = :expires, head = :head' : 'SET expiresAt = :expires',
        ConditionExpression: `attribute_exists(pk) AND NOT revoked = :true AND ${unchanged}`,
        ExpressionAttributeValues: {
          ':expires': oldExpiresAt,
          ':true': true,
          ...(firstOfLine ? { ':head': item.prefix } : {}),
          ...(old.expiresAt === undefined ? {} : { ':seen': old.expiresAt }),
        },
      }));
      const head: Parts = firstOfLine
        ? {}
        : {
            lineHead: {
              Update: {
                TableName: db.tableName,
                Key: apiKeyPrefixKey(lineage),
                UpdateExpression: 'SET head = :head',
                ConditionExpression: 'attribute_exists(pk)',
                ExpressionAttributeValues: { ':head': item.prefix },
              },
            },
          };
      const failed = await transactDecided(db, { ...putKey(db, hashApiKey(key), item), ...expire, ...head });
      // Either the new key's prefix collided (draw another) or the old key changed meanwhile (read it again).
      if (failed) return again;
      return { key, record: recordOf(item, now), previous: recordOf({ ...old, expiresAt: oldExpiresAt }, now) };
    },
    () => new Error(`Key ${prefix} kept changing while it was being rotated; try again.`),
  );
}
