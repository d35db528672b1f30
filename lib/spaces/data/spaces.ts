import {
  deleteRecord,
  getRecord,
  insertRecord,
  releaseGuard,
  takeGuard,
  unchangedRecord,
  updateRecord,
} from '#lib/data/collection.ts';
import type { WriteOptions } from '#lib/data/commit.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { NameTaken } from '#lib/data/errors.ts';
import type { ResourceRecord } from '#lib/data/item.ts';
import { foldName, spaceNameGuardKey } from '#lib/data/keys.ts';
import { type ListQuery, listRecords } from '#lib/data/listing.ts';
import type { Written } from '#lib/data/outcome.ts';

const kind = 'space';

export type SpaceRecord = ResourceRecord & { color: number };
export type NewSpace = { name: string; color: number };
export type SpaceChanges = { name?: string; color?: number };

/** The guard that keeps a space's name unique among its owner's spaces, whatever its case. */
const nameGuard = (owner: string, name: string) => spaceNameGuardKey(owner, foldName(name));

export const showSpace = (db: Db, owner: string, id: number) => getRecord<SpaceRecord>(db, owner, kind, id);

export const listSpaces = (db: Db, owner: string, query: ListQuery) => listRecords<SpaceRecord>(db, owner, kind, query);

export const storeSpace = (db: Db, owner: string, space: NewSpace, options?: WriteOptions) =>
  insertRecord<SpaceRecord>(
    db,
    owner,
    kind,
    { name: { put: nameGuard(owner, space.name) } },
    (id, now) => ({ id, name: space.name, color: space.color, createdAt: now, updatedAt: now }),
    options,
  );

export const destroySpace = (db: Db, owner: string, id: number, options?: WriteOptions) =>
  deleteRecord<SpaceRecord>(
    db,
    owner,
    kind,
    id,
    (space) => ({ guards: { name: nameGuard(owner, space.name) } }),
    options,
  );

/**
 * Updates a space (`updateRecord`: read, then one transaction with the event, conditional on the version read).
 * A rename whose folded name changes also moves the name guard in that transaction.
 */
export async function updateSpace(
  db: Db,
  owner: string,
  id: number,
  changes: SpaceChanges,
  options: WriteOptions = {},
): Promise<Written<SpaceRecord>> {
  if (changes.name === undefined && changes.color === undefined) {
    return unchangedRecord<SpaceRecord>(db, owner, kind, id, options);
  }
  return updateRecord<SpaceRecord>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      // Field by field: an absent change may still be a key holding `undefined`, which must not erase a field.
      const name = changes.name ?? current.name;
      const record = { ...current, name, color: changes.color ?? current.color, updatedAt: now };
      if (foldName(name) === foldName(current.name)) return { record };
      return {
        record,
        parts: {
          oldName: releaseGuard(db, nameGuard(owner, current.name), owner, id),
          newName: takeGuard(db, nameGuard(owner, name), owner, kind, id),
        },
        failure: (failed) => (failed.has('newName') ? new NameTaken() : undefined),
      };
    },
    options,
  );
}
