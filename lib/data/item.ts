/**
 * Records and the items that store them: the data layer reads items and returns records (no storage attribute),
 * and writes records as items (their keys, the by-name index's sort key, the folded name, the due-check index's
 * keys added here). This is the one place either way, so no caller sees `pk`, `sk`, `lsi1sk`, `fold`, `kind` or
 * `gsi1*`, and an event carries the record, not the item.
 */
import type { Kind } from '#lib/kinds.ts';
import type { TableKey } from '#lib/table.ts';
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
export const dueCheckKeys = (owner: string, id: number, nextCheckAt: string) => ({
  gsi1pk: dueCheckShard(owner, id),
  gsi1sk: nextCheckAt,
});

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
