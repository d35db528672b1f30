import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { NameTakenError, NotFoundError, ServiceUnavailableError } from '#lib/errors.ts';
import {
  deleteItem,
  getItem,
  guardItem,
  insertItem,
  type ListQuery,
  listItems,
  type StoredItem,
} from './collection.ts';
import { itemFromFailedCondition } from './condition.ts';
import { foldName, itemKey, nameSortKey, spaceNameGuardKey } from './keys.ts';
import { transactWrite } from './transact.ts';

const kind = 'space';

export type SpaceItem = StoredItem & { color: number };
export type NewSpace = { name: string; color: number };
export type SpaceChanges = { name?: string; color?: number };

export const showSpace = (db: Db, owner: string, id: number) => getItem<SpaceItem>(db, owner, kind, id);

export const listSpaces = (db: Db, owner: string, query: ListQuery) => listItems<SpaceItem>(db, owner, kind, query);

export const storeSpace = (db: Db, owner: string, space: NewSpace) =>
  insertItem<SpaceItem>(db, owner, kind, [{ put: spaceNameGuardKey(owner, foldName(space.name)) }], (id, now) => ({
    id,
    name: space.name,
    fold: foldName(space.name),
    color: space.color,
    createdAt: now,
    updatedAt: now,
  }));

export const destroySpace = (db: Db, owner: string, id: number) =>
  deleteItem<SpaceItem>(db, owner, kind, id, (item) => ({ guards: [spaceNameGuardKey(owner, item.fold)] }));

/** SET clauses for the plain fields; the name is handled apart because it moves the guard. */
function setClauses(changes: SpaceChanges, now: string) {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': now };
  const sets = ['#updatedAt = :updatedAt'];
  if (changes.color !== undefined) {
    names['#color'] = 'color';
    values[':color'] = changes.color;
    sets.push('#color = :color');
  }
  if (changes.name !== undefined) {
    names['#name'] = 'name';
    values[':name'] = changes.name;
    sets.push('#name = :name');
  }
  return { names, values, sets };
}

const MAX_RENAME_ATTEMPTS = 5;

/**
 * Updates in one conditional write when the name's folded form is unchanged (one round trip). A real
 * rename returns the current item from the failed condition and then moves the guard in a transaction.
 */
export async function updateSpace(db: Db, owner: string, id: number, changes: SpaceChanges): Promise<SpaceItem> {
  if (changes.name === undefined && changes.color === undefined) return showSpace(db, owner, id);
  const key = itemKey(owner, kind, id);
  for (let attempt = 1; attempt <= MAX_RENAME_ATTEMPTS; attempt++) {
    const now = new Date().toISOString();
    const { names, values, sets } = setClauses(changes, now);
    const fold = changes.name === undefined ? undefined : foldName(changes.name);
    let current: SpaceItem;
    try {
      const { Attributes } = await db.client.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key,
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: fold === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND #fold = :fold',
          ExpressionAttributeNames: fold === undefined ? names : { ...names, '#fold': 'fold' },
          ExpressionAttributeValues: fold === undefined ? values : { ...values, ':fold': fold },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return Attributes as SpaceItem;
    } catch (error) {
      const found = itemFromFailedCondition<SpaceItem>(error);
      if (!found || changes.name === undefined) throw new NotFoundError();
      current = found;
    }
    const renamed = await renameSpace(db, owner, current, { ...changes, name: changes.name }, now);
    if (renamed) return renamed;
  }
  throw new ServiceUnavailableError();
}

/** Moves the name guard and updates the item atomically; null when the item changed meanwhile. */
async function renameSpace(
  db: Db,
  owner: string,
  current: SpaceItem,
  changes: SpaceChanges & { name: string },
  now: string,
): Promise<SpaceItem | null> {
  const fold = foldName(changes.name);
  const { names, values, sets } = setClauses(changes, now);
  const lsi1sk = nameSortKey(kind, fold, current.id);
  const failed = await transactWrite(db, [
    {
      Update: {
        TableName: db.tableName,
        Key: itemKey(owner, kind, current.id),
        UpdateExpression: `SET ${[...sets, '#fold = :fold', '#lsi1sk = :lsi1sk'].join(', ')}`,
        // The color too: if it changed since `current` was read, retry, so the item answered below is the one stored.
        ConditionExpression: '#fold = :oldFold AND #color = :oldColor',
        ExpressionAttributeNames: { ...names, '#fold': 'fold', '#lsi1sk': 'lsi1sk', '#color': 'color' },
        ExpressionAttributeValues: {
          ...values,
          ':fold': fold,
          ':lsi1sk': lsi1sk,
          ':oldFold': current.fold,
          ':oldColor': current.color,
        },
      },
    },
    {
      Delete: {
        TableName: db.tableName,
        Key: spaceNameGuardKey(owner, current.fold),
        ConditionExpression: '#id = :id',
        ExpressionAttributeNames: { '#id': 'id' },
        ExpressionAttributeValues: { ':id': current.id },
      },
    },
    {
      Put: {
        TableName: db.tableName,
        Item: guardItem(spaceNameGuardKey(owner, fold), owner, kind, current.id),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ]);
  // Field by field: an absent change may still be a key holding `undefined`, which must not erase a field.
  if (!failed) {
    return { ...current, name: changes.name, color: changes.color ?? current.color, fold, lsi1sk, updatedAt: now };
  }
  if (failed[0]) return null;
  if (failed[2]) throw new NameTakenError();
  throw new Error(`Name guard of space ${current.id} does not point back to it`);
}
