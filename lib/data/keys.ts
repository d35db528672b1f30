/**
 * Key builders for the single table. Everything an owner has lives in the `OWNER#<id>` partition,
 * so every request-path read and write is scoped to the authenticated owner by construction.
 */

import { type TableKey, tableDefinition } from '#lib/data/table.ts';
import type { Kind } from '#lib/kinds.ts';

/** Ids are zero-padded so the string sort key orders them numerically. */
export const ID_DIGITS = 12;
export const MAX_ID = 10 ** ID_DIGITS - 1;

/** Below every character a name may hold, so `abc` sorts before `abc d` and ties break by id. */
const NAME_ID_SEPARATOR = '\u0001';

/** `SPACE#`, `DOMAIN#`: the sort key prefix of an owner's items of one kind, in the table and the by-name index. */
export const collectionPrefix = (kind: Kind) => `${kind.toUpperCase()}#`;
/** `SPACENAME#`, `DOMAINNAME#`: the prefix of a kind's name guards. */
export const nameGuardPrefix = (kind: Kind) => `${kind.toUpperCase()}NAME#`;
export const padId = (id: number) => String(id).padStart(ID_DIGITS, '0');

const OWNER_PREFIX = 'OWNER#';
export const ownerPartition = (owner: string) => `${OWNER_PREFIX}${owner}`;
/** The owner of an owner partition key; null for any other partition (a key's, a global name guard's). */
export const partitionOwner = (pk: string): string | null =>
  pk.startsWith(OWNER_PREFIX) ? pk.slice(OWNER_PREFIX.length) : null;

export const itemKey = (owner: string, kind: Kind, id: number): TableKey => ({
  pk: ownerPartition(owner),
  sk: `${collectionPrefix(kind)}${padId(id)}`,
});

/** The id of an item's sort key of this kind, or null for any other sort key. */
export function itemIdOf(kind: Kind, sk: string): number | null {
  const prefix = collectionPrefix(kind);
  if (!sk.startsWith(prefix)) return null;
  const id = Number(sk.slice(prefix.length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * The most of a folded name the by-name index's sort key holds, in UTF-8 bytes: DynamoDB limits a local
 * secondary index's sort key to 1,024 bytes, and the longest prefix and the id take 25 of them. Names that
 * share their first 960 bytes sort by id after that (a webhook's URL may be far longer; any name shorter than
 * this is whole, so every key written before is the same).
 */
export const NAME_SORT_KEY_MAX_BYTES = 960;

/** The longest start of `text` of at most `maxBytes` UTF-8 bytes, never cutting a character. */
function utf8Prefix(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  // encodeInto stops before a character that would not fit whole: what it read is the prefix.
  return text.slice(0, new TextEncoder().encodeInto(text, new Uint8Array(maxBytes)).read);
}

/** Sort key of the by-name index: case-folded name (its first 960 bytes), then id. */
export const nameSortKey = (kind: Kind, fold: string, id: number) =>
  `${collectionPrefix(kind)}${utf8Prefix(fold, NAME_SORT_KEY_MAX_BYTES)}${NAME_ID_SEPARATOR}${padId(id)}`;

export const sequenceKey = (owner: string, kind: Kind): TableKey => ({
  pk: ownerPartition(owner),
  sk: `SEQUENCE#${kind}`,
});

/**
 * The owner's feed head: the id of its last event, moved by one in the transaction of every change
 * (`feed-head.ts`). Feeds from before gapless ids also left a `SEQUENCE#event-ticket` counter, no longer read.
 */
export const eventSequenceKey = (owner: string): TableKey => ({ pk: ownerPartition(owner), sk: 'SEQUENCE#event' });

/** `EVENT#`: the sort key prefix of an owner's events, in id order. */
export const EVENT_PREFIX = 'EVENT#';
export const eventKey = (owner: string, id: number): TableKey => ({
  pk: ownerPartition(owner),
  sk: `${EVENT_PREFIX}${padId(id)}`,
});

/** An idempotency key's record, scoped to the owner. */
export const idempotencyKey = (owner: string, key: string): TableKey => ({
  pk: ownerPartition(owner),
  sk: `IDEMPOTENCY#${key}`,
});

export const counterKey = (owner: string, kind: Kind): TableKey => ({
  pk: ownerPartition(owner),
  sk: `COUNT#${kind}`,
});

/** Space names are unique per owner, so their guard lives in the owner's partition. */
export const spaceNameGuardKey = (owner: string, fold: string): TableKey => ({
  pk: ownerPartition(owner),
  sk: `${nameGuardPrefix('space')}${fold}`,
});

/**
 * An active domain's name is unique across all owners: one global guard item per name, held only by the
 * active domain (`lib/domains/data/domains.ts`). A pending domain holds no global name.
 */
export const domainNameGuardKey = (name: string): TableKey => ({
  pk: `${nameGuardPrefix('domain')}${name}`,
  sk: `${nameGuardPrefix('domain')}${name}`,
});

/**
 * One owner has each domain name once, pending or active: a guard in the owner's partition, like a space's.
 * Domains stored before verification existed (active, without a `status`) hold only the global guard.
 */
export const ownerDomainNameGuardKey = (owner: string, name: string): TableKey => ({
  pk: ownerPartition(owner),
  sk: `${nameGuardPrefix('domain')}${name}`,
});

/** The due-check index's shard of a domain: spread by a hash of its key, fixed for its life. */
export function dueCheckShard(owner: string, id: number): string {
  let hash = 2_166_136_261;
  for (const character of `${owner}#${id}`) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16_777_619);
  return `CHECK#${(hash >>> 0) % tableDefinition.dueCheckIndex.shards}`;
}

/** Every shard of the due-check index, in order. */
export const dueCheckShards = (): string[] =>
  Array.from({ length: tableDefinition.dueCheckIndex.shards }, (_, shard) => `CHECK#${shard}`);

/** The feed-change index's shard of an owner's feed head: spread by a hash of the owner, fixed for its life. */
export function feedChangeShard(owner: string): string {
  let hash = 2_166_136_261;
  for (const character of owner) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16_777_619);
  return `FEED#${(hash >>> 0) % tableDefinition.feedChangeIndex.shards}`;
}

/** Every shard of the feed-change index, in order. */
export const feedChangeShards = (): string[] =>
  Array.from({ length: tableDefinition.feedChangeIndex.shards }, (_, shard) => `FEED#${shard}`);

/** A feed head's sort key in the feed-change index: when it last changed (ms, 15 digits), then its owner. */
export const feedChangeSortKey = (committedAtMs: number, owner: string): string =>
  `${String(Math.max(0, Math.trunc(committedAtMs))).padStart(15, '0')}#${owner}`;

/** The owner in a feed-change sort key. */
export const feedChangeOwner = (sortKey: string): string => sortKey.slice(16);

export const apiKeyKey = (hash: string): TableKey => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' });

export const apiKeyPrefixKey = (prefix: string): TableKey => ({ pk: `APIKEYPREFIX#${prefix}`, sk: 'APIKEYPREFIX' });

/** The owner's own listing of their keys (metadata only, never the key). */
export const ownerApiKeyKey = (owner: string, prefix: string): TableKey => ({
  pk: ownerPartition(owner),
  sk: `APIKEY#${prefix}`,
});

/**
 * The longest search that can match a name: no name is longer (a space's is at most 32 characters, a domain's
 * 253 in ASCII and no more in Unicode). A longer search matches nothing, and is answered so without a read.
 */
export const SEARCH_MAX = 255;

/** Case-insensitive identity of a name: used for uniqueness, search and name order. */
export const foldName = (name: string) => name.normalize('NFC').toLowerCase();

/**
 * One delivery attempt of a webhook's: in the owner's partition, by webhook, then time, so a Query reads a
 * webhook's attempts newest first (`DELIVERY#`, apart from the webhooks' own `WEBHOOK#` range).
 */
export const DELIVERY_PREFIX = 'DELIVERY#';
export const deliveryPrefix = (webhookId: number) => `${DELIVERY_PREFIX}${padId(webhookId)}#`;
/**
 * A webhook's attempt not made yet (the local stack keeps its pending retries in the table; on AWS they wait in
 * SQS): one per event, after every made attempt in the sort order, so a newest-first list shows it first.
 */
export const pendingDeliveryKey = (owner: string, webhookId: number, messageId: string): TableKey => ({
  pk: ownerPartition(owner),
  sk: `${deliveryPrefix(webhookId)}~pending#${messageId}`,
});

/** The feed-change index's partition holding the local stack's pending attempts (sparse: nothing else). */
export const PENDING_DELIVERIES_SHARD = 'LOCAL#webhook-jobs';

export const deliveryKey = (
  owner: string,
  webhookId: number,
  at: string,
  messageId: string,
  attempt: number,
): TableKey => ({
  pk: ownerPartition(owner),
  sk: `${deliveryPrefix(webhookId)}${at}#${messageId}#${String(attempt).padStart(3, '0')}`,
});
