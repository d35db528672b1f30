/**
 * API keys, as the authorizer reads them (its hot path: one GetItem, and now and then the last use). The key
 * tool's administration (create, list, revoke, rotate) is `api-key-admin.ts`. Three items per key, written and
 * changed together in transactions:
 * - the hash item (`APIKEY#<sha256>`), which the authorizer reads and on which it records the last use;
 * - the prefix item (`APIKEYPREFIX#<prefix>`), by which the key tool revokes and rotates;
 * - the owner's listing item (`OWNER#<owner>`, `APIKEY#<prefix>`).
 * Each holds owner, label, prefix, createdAt, revoked, and since scopes and expiry: `scopes` (a list) and
 * `expiresAt` (an ISO instant, absent: never); since the scope catalogue had versions, `scopeCatalogue` (the
 * version it was written under: `storedScopes` reads the scopes by it). Items written before have none of them
 * and keep working by the legacy rule (`lib/auth/rules/scopes.ts`) with no expiry; nothing is migrated.
 *
 * Rotation lines: a key made by rotation stores `lineage`, the prefix of the first key of its line (a key without
 * it is the first of its own); the first key's items store `head`, the prefix of the line's newest key (absent:
 * itself). A webhook records the line of the key that directed it (`lib/webhooks/data/webhooks.ts`), and deliveries go on
 * while the line's newest key is active and reads them (`lineState`), so a rotation's old key expiring after its
 * grace stops none of them.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '#lib/auth/rules/api-key.ts';
import { isExpired } from '#lib/auth/rules/expiry.ts';
import { storedScopes } from '#lib/auth/rules/scopes.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { apiKeyKey, apiKeyPrefixKey } from '#lib/data/keys.ts';
import type { Scope } from '#lib/kinds.ts';

export type KeyState = 'active' | 'expired' | 'revoked';

/** The attributes of a key item as stored, in either shape. */
export type StoredKey = {
  owner: string;
  label: string;
  prefix: string;
  createdAt: string;
  revoked?: boolean;
  scopes?: unknown;
  scopeCatalogue?: number;
  expiresAt?: string;
  /** The prefix of the first key of its rotation line (absent: this key's own). */
  lineage?: string;
  /** On the first key of a line: the prefix of its newest key (absent: this one). */
  head?: string;
  lastUsedAt?: string;
  hash?: string;
};

/**
 * The last use is recorded at most once per this many seconds per key: the listing's "last used" is the start
 * of the latest hour in which the key was used. Most authorizer runs then only read (see `functions/authorizer.ts`).
 */
export const LAST_USE_RESOLUTION_SECONDS = 3_600;

/** Is a recorded last use (none: never) older than the resolution, so that a use now should be recorded? */
export const lastUseIsStale = (lastUsedAt: string | undefined, now: Date, resolutionSeconds: number): boolean =>
  lastUsedAt === undefined || !(Date.parse(lastUsedAt) > now.getTime() - resolutionSeconds * 1000);

export const keyState = (item: Pick<StoredKey, 'revoked' | 'expiresAt'>, now: Date): KeyState =>
  item.revoked === true ? 'revoked' : isExpired(item.expiresAt, now) ? 'expired' : 'active';

/** Why a key is refused; `prefix` is known for a key that exists. */
export type KeyLookup =
  | { found: true; owner: string; prefix: string; lineage: string; scopes: Scope[]; lastUsedAt?: string }
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
  return {
    found: true,
    owner: item.owner,
    prefix: item.prefix,
    lineage: lineageOf(item),
    scopes: storedScopes(item),
    ...lastUsed,
  };
}

/** The rotation line a key belongs to: the prefix of its first key. */
export const lineageOf = (item: Pick<StoredKey, 'prefix' | 'lineage'>): string => item.lineage ?? item.prefix;

/** A rotation line as its newest key has it now: active with its scopes, or ended (revoked, expired). */
export type LineState = { state: 'active'; scopes: Scope[] } | { state: 'revoked' | 'expired' };

const keyByPrefixItem = async (db: Db, prefix: string): Promise<StoredKey | undefined> =>
  (
    await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: apiKeyPrefixKey(prefix), ConsistentRead: true }),
    )
  ).Item as StoredKey | undefined;

/**
 * The state of a rotation line, by its newest key: one strongly consistent GetItem of the first key's prefix
 * item, and one more of the newest key's when the line was rotated. A line whose key cannot be found (keys are
 * never deleted) is read as revoked: fail closed.
 */
export async function lineState(db: Db, lineage: string, now: Date = new Date()): Promise<LineState> {
  const first = await keyByPrefixItem(db, lineage);
  const newest = first?.head && first.head !== lineage ? await keyByPrefixItem(db, first.head) : first;
  if (!newest) return { state: 'revoked' };
  const state = keyState(newest, now);
  return state === 'active' ? { state, scopes: storedScopes(newest) } : { state };
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
