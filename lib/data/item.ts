/**
 * Records and the items that store them: the data layer reads items and returns records (no storage attribute),
 * and writes records as items (their keys, the by-name index's sort key, the folded name, the due-check index's
 * keys added here). This is the one place either way, so no caller sees `pk`, `sk`, `lsi1sk`, `fold`, `kind` or
 * `gsi1*`, and an event carries the record, not the item.
 */

import type { TableKey } from '#lib/data/table.ts';
import type { Kind } from '#lib/kinds.ts';
import { dueCheckShard, foldName, itemKey, nameSortKey } from './keys.ts';
import { upgraded } from './upgrades.ts';

/** What every stored space and domain is, as the data layer returns it. */
export type ResourceRecord = {
  id: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  /** Incremented by every write (the ETag); 0 for items stored before versions existed (`upgrades.ts`). */
  version: number;
  /** When the record's next scheduled check is due (a domain's; the due-check index holds it). */
  nextCheckAt?: string;
};

/** The attributes only storage needs (keys, index keys, the folded name, the item's kind). */
export type StorageAttributes = TableKey & {
  lsi1sk: string;
  kind: Kind;
  fold: string;
  gsi1pk?: string;
  gsi1sk?: string;
};

/**
 * The record an item of a kind stores, in today's shape (`upgrades.ts`). Also reads the records events carry,
 * and those events written before records carried the item's storage attributes: dropped the same way.
 */
export function recordOf<Record extends ResourceRecord>(
  kind: Kind,
  item: Readonly<globalThis.Record<string, unknown>>,
): Record {
  const { pk: _pk, sk: _sk, lsi1sk: _lsi1sk, kind: _kind, fold: _fold, gsi1pk: _shard, gsi1sk, ...record } = item;
  return upgraded(kind, gsi1sk === undefined ? record : { ...record, nextCheckAt: gsi1sk }) as Record;
}

/** The due-check index's keys of a record's next check (none: the record leaves the index). */
const dueCheckKeys = (owner: string, id: number, nextCheckAt: string) => ({
  gsi1pk: dueCheckShard(owner, id),
  gsi1sk: nextCheckAt,
});

/** What a record keeps that the API does not show: set, or removed (`undefined`), without a change. */
export type Bookkeeping = { nextCheckAt?: string; failingSince?: string | undefined };

/** The item attributes bookkeeping sets and removes: `nextCheckAt` is the due-check index's keys. */
export function bookkeepingAttributes(owner: string, id: number, bookkeeping: Bookkeeping) {
  const set: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [name, value] of Object.entries(bookkeeping)) {
    if (name === 'nextCheckAt') {
      if (value === undefined) remove.push('gsi1pk', 'gsi1sk');
      else Object.assign(set, dueCheckKeys(owner, id, String(value)));
    } else if (value === undefined) remove.push(name);
    else set[name] = value;
  }
  return { set, remove };
}

/**
 * The record an event carries: the resource without what only the data layer keeps (bookkeeping, the key
 * line a webhook is held to) or what the API never shows after it is given (a webhook's signing secrets), since
 * events are a stored format for 30 days and go on the bus.
 */
export function eventRecordOf(record: ResourceRecord): ResourceRecord {
  const {
    nextCheckAt: _due,
    failingSince: _failing,
    secrets: _secrets,
    keyLineage: _key,
    edgeShard: _shard,
    ...published
  } = record as ResourceRecord & {
    edgeShard?: unknown;
    failingSince?: unknown;
    secrets?: unknown;
    keyLineage?: unknown;
  };
  return published;
}

/** The item that stores a record of the owner's. */
export function itemOf<Record extends ResourceRecord>(owner: string, kind: Kind, record: Record) {
  const { nextCheckAt, ...rest } = record;
  const fold = foldName(record.name);
  return {
    ...itemKey(owner, kind, record.id),
    lsi1sk: nameSortKey(kind, fold, record.id),
    kind,
    fold,
    ...rest,
    ...(nextCheckAt === undefined ? {} : dueCheckKeys(owner, record.id, nextCheckAt)),
  } satisfies StorageAttributes;
}
