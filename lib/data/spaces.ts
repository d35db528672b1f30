import type { Db } from '#lib/dynamodb.ts';
import type { WriteOptions } from './changes.ts';
import {
  deleteItem,
  getItem,
  insertItem,
  releaseGuard,
  type StoredItem,
  takeGuard,
  unchangedItem,
  updateItem,
} from './collection.ts';
import { NameTaken } from './errors.ts';
import type { Written } from './outcome.ts';
import { foldName, nameSortKey, spaceNameGuardKey } from './keys.ts';
import { type ListQuery, listItems } from './listing.ts';

const kind = 'space';

export type SpaceItem = StoredItem & { color: number };
export type NewSpace = { name: string; color: number };
export type SpaceChanges = { name?: string; color?: number };

export const showSpace = (db: Db, owner: string, id: number) => getItem<SpaceItem>(db, owner, kind, id);

export const listSpaces = (db: Db, owner: string, query: ListQuery) => listItems<SpaceItem>(db, owner, kind, query);

export const storeSpace = (db: Db, owner: string, space: NewSpace, options?: WriteOptions) =>
  insertItem<SpaceItem>(
    db,
    owner,
    kind,
    { name: { put: spaceNameGuardKey(owner, foldName(space.name)) } },
    (id, now) => ({
      id,
      name: space.name,
      fold: foldName(space.name),
      color: space.color,
      createdAt: now,
      updatedAt: now,
    }),
    options,
  );

export const destroySpace = (db: Db, owner: string, id: number, options?: WriteOptions) =>
  deleteItem<SpaceItem>(
    db,
    owner,
    kind,
    id,
    (item) => ({ guards: { name: spaceNameGuardKey(owner, item.fold) } }),
    options,
  );

/**
 * Updates a space (`updateItem`: read, then one transaction with the event, conditional on the version read).
 * A rename whose folded name changes also moves the name guard in that transaction.
 */
export async function updateSpace(
  db: Db,
  owner: string,
  id: number,
  changes: SpaceChanges,
  options: WriteOptions = {},
): Promise<Written<SpaceItem>> {
  if (changes.name === undefined && changes.color === undefined) {
    return unchangedItem<SpaceItem>(db, owner, kind, id, options);
  }
  return updateItem<SpaceItem>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      // Field by field: an absent change may still be a key holding `undefined`, which must not erase a field.
      const name = changes.name ?? current.name;
      const fold = foldName(name);
      const item = { ...current, name, fold, color: changes.color ?? current.color, updatedAt: now };
      if (fold === current.fold) return { item };
      return {
        item: { ...item, lsi1sk: nameSortKey(kind, fold, id) },
        parts: {
          oldName: releaseGuard(db, spaceNameGuardKey(owner, current.fold), owner, id),
          newName: takeGuard(db, spaceNameGuardKey(owner, fold), owner, kind, id),
        },
        failure: (failed) => (failed.has('newName') ? new NameTaken() : undefined),
      };
    },
    options,
  );
}
