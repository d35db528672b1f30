/**
 * API keys. Three items per key, written and changed together in transactions:
 * - the hash item (`APIKEY#<sha256>`), which the authorizer reads and on which it records the last use;
 * - the prefix item (`APIKEYPREFIX#<prefix>`), by which the key tool revokes and rotates;
 * - the owner's listing item (`OWNER#<owner>`, `APIKEY#<prefix>`).
 * Each holds owner, label, prefix, createdAt, revoked, and since scopes and expiry: `scopes` (a list) and
 * `expiresAt` (an ISO instant, absent: never). Items written before them have neither and keep working with
 * every scope and no expiry; nothing is migrated.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type BatchGetCommandOutput, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { displayPrefix, generateApiKey, hashApiKey } from '#lib/auth/api-key.ts';
import { isExpired } from '#lib/auth/expiry.ts';
import { allScopes, type Scope, storedScopes } from '#lib/auth/scopes.ts';
import type { Db } from '#lib/dynamodb.ts';
import { apiKeyKey, apiKeyPrefixKey, ownerApiKeyKey, ownerPartition } from './keys.ts';
import { paginateQuery } from './query.ts';
import { type Parts, transactDecided } from './transaction.ts';

export type KeyState = 'active' | 'expired' | 'revoked';

/** What the key tool shows of a key: never the key or its hash. */
export type ApiKeyRecord = {
  prefix: string;
  owner: string;
  label: string;
  scopes: Scope[];
  createdAt: string;
  /** Null: never expires. */
  expiresAt: string | null;
  /** Null: not used since last use was recorded (or never). */
  lastUsedAt: string | null;
  revoked: boolean;
  state: KeyState;
};

/** The attributes of a key item as stored, in either shape. */
type StoredKey = {
  owner: string;
  label: string;
  prefix: string;
  createdAt: string;
  revoked?: boolean;
  scopes?: unknown;
  expiresAt?: string;
  lastUsedAt?: string;
  hash?: string;
};

/** Owner ids are opaque to the API; keep them printable and bounded so they are safe in keys and logs. */
export const OWNER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

/**
 * The last use is recorded at most once per this many seconds per key: the listing's "last used" is the start
 * of the latest hour in which the key was used. Most authorizer runs then only read (see `functions/authorizer.ts`).
 */
export const LAST_USE_RESOLUTION_SECONDS = 3_600;

/** Is a recorded last use (none: never) older than the resolution, so that a use now should be recorded? */
export const lastUseIsStale = (lastUsedAt: string | undefined, now: Date, resolutionSeconds: number): boolean =>
  lastUsedAt === undefined || !(Date.parse(lastUsedAt) > now.getTime() - resolutionSeconds * 1000);

/** A rotated key's default grace: the old key keeps working this long. */
export const DEFAULT_GRACE_SECONDS = 24 * 3_600;

export const keyState = (item: Pick<StoredKey, 'revoked' | 'expiresAt'>, now: Date): KeyState =>
  item.revoked === true ? 'revoked' : isExpired(item.expiresAt, now) ? 'expired' : 'active';

function recordOf(item: StoredKey, now: Date, lastUsedAt = item.lastUsedAt): ApiKeyRecord {
  return {
    prefix: item.prefix,
    owner: item.owner,
    label: item.label ?? '',
    scopes: storedScopes(item.scopes),
    createdAt: item.createdAt,
    expiresAt: item.expiresAt ?? null,
    lastUsedAt: lastUsedAt ?? null,
    revoked: item.revoked === true,
    state: keyState(item, now),
  };
}

/** Why a key is refused; `prefix` is known for a key that exists. */
export type KeyLookup =
  | { found: true; owner: string; prefix: string; scopes: Scope[]; lastUsedAt?: string }
  | { found: false; reason: 'unknown' | 'revoked' | 'expired'; prefix?: string };

/** The key with this hash, if it may be used now. One strongly consistent GetItem. */
export async function lookUpKey(db: Db, hash: string, now: Date = new Date()): Promise<KeyLookup> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: apiKeyKey(hash), ConsistentRead: true }),
  );
  if (!Item) return { found: false, reason: 'unknown' };
  const item = Item as StoredKey;
  const state = keyState(item, now);
  if (state !== 'active') return { found: false, reason: state, prefix: item.prefix };
  const lastUsed = item.lastUsedAt === undefined ? {} : { lastUsedAt: item.lastUsedAt };
  return { found: true, owner: item.owner, prefix: item.prefix, scopes: storedScopes(item.scopes), ...lastUsed };
}

/** Who holds this key, or null for an unknown, revoked or expired key. */
export async function ownerOfKey(db: Db, key: string, now: Date = new Date()): Promise<string | null> {
  const found = await lookUpKey(db, hashApiKey(key), now);
  return found.found ? found.owner : null;
}

/**
 * Records that the key with this hash was used at `now`: one conditional UpdateItem on its hash item, which
 * writes only for a key that exists and may be used, and only when the recorded use is older than
 * `resolutionSeconds` (so concurrent or retried calls write once, and never move it back). Returns whether it
 * wrote.
 */
export async function recordKeyUse(
  db: Db,
  hash: string,
  now: Date = new Date(),
  resolutionSeconds = LAST_USE_RESOLUTION_SECONDS,
): Promise<boolean> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: apiKeyKey(hash),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression:
          'attribute_exists(pk) AND NOT revoked = :true AND (attribute_not_exists(expiresAt) OR expiresAt > :now) ' +
          'AND (attribute_not_exists(lastUsedAt) OR lastUsedAt <= :stale)',
        ExpressionAttributeValues: {
          ':now': now.toISOString(),
          ':stale': new Date(now.getTime() - resolutionSeconds * 1000).toISOString(),
          ':true': true,
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

export type CreateKeyOptions = {
  /** Default: every scope. */
  scopes?: readonly Scope[];
  /** An ISO instant; absent: the key never expires. */
  expiresAt?: string | undefined;
  now?: Date;
};

const fresh = 'attribute_not_exists(pk)';

/** The three Puts of a new key, each refused if its item exists (a prefix collision). */
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

function newKeyItem(owner: string, label: string, key: string, options: CreateKeyOptions): StoredKey {
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
  for (;;) {
    const key = generateApiKey();
    const item = newKeyItem(owner, label, key, options);
    const failed = await transactDecided(db, putKey(db, hashApiKey(key), item));
    // A display-prefix collision is rare (48 random bits); draw another key.
    if (!failed) return { key, record: recordOf(item, options.now ?? new Date()) };
  }
}

/** The hash items of these keys (for their last use), by partition key. */
async function hashItems(db: Db, hashes: string[]): Promise<Map<string, StoredKey>> {
  const found = new Map<string, StoredKey>();
  for (let start = 0; start < hashes.length; start += 100) {
    let keys: Record<string, unknown>[] | undefined = hashes.slice(start, start + 100).map((hash) => apiKeyKey(hash));
    for (let round = 0; keys && keys.length > 0; round++) {
      // Keys DynamoDB left unprocessed (throttling) are asked again after a short, growing pause.
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1_000, 50 * 2 ** round)));
      const page: BatchGetCommandOutput = await db.client.send(
        new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: keys } } }),
      );
      for (const item of page.Responses?.[db.tableName] ?? []) found.set(String(item.pk), item as StoredKey);
      keys = page.UnprocessedKeys?.[db.tableName]?.Keys;
    }
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
    readonly reason: 'not-found' | KeyState,
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
  now?: Date;
};

const MAX_ROTATE_ATTEMPTS = 5;

/**
 * Rotates an active key: a new key with the same owner, label and scopes, and the old one expiring after the
 * grace (or sooner, if it already expires sooner). One transaction writes the new key's three items and
 * sets the old key's expiry on its three, on the condition that the old key is still as read (not revoked,
 * same expiry): a concurrent revoke or rotation makes it read again.
 */
export async function rotateApiKey(
  db: Db,
  prefix: string,
  { graceSeconds = DEFAULT_GRACE_SECONDS, expiresAt, now = new Date() }: RotateOptions = {},
): Promise<{ key: string; record: ApiKeyRecord; previous: ApiKeyRecord }> {
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0) throw new Error(`Invalid grace ${graceSeconds}`);
  for (let attempt = 1; attempt <= MAX_ROTATE_ATTEMPTS; attempt++) {
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
    const item = newKeyItem(old.owner, old.label ?? '', key, {
      scopes: storedScopes(old.scopes),
      expiresAt: newExpiresAt,
      now,
    });
    const unchanged = old.expiresAt === undefined ? 'attribute_not_exists(expiresAt)' : 'expiresAt = :seen';
    const expire = updateKeyItems(old, 'old', (Key) => ({
      TableName: db.tableName,
      Key,
      UpdateExpression: 'SET expiresAt = :expires',
      ConditionExpression: `attribute_exists(pk) AND NOT revoked = :true AND ${unchanged}`,
      ExpressionAttributeValues: {
        ':expires': oldExpiresAt,
        ':true': true,
        ...(old.expiresAt === undefined ? {} : { ':seen': old.expiresAt }),
      },
    }));
    const failed = await transactDecided(db, { ...putKey(db, hashApiKey(key), item), ...expire });
    if (!failed) {
      return { key, record: recordOf(item, now), previous: recordOf({ ...old, expiresAt: oldExpiresAt }, now) };
    }
    // Either the new key's prefix collided (draw another) or the old key changed meanwhile (read it again).
  }
  throw new Error(`Key ${prefix} kept changing while it was being rotated; try again.`);
}
