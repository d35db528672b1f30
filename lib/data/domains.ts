import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { NotFoundError } from '#lib/errors.ts';
import { domainNameMatches } from '#lib/idn.ts';
import { pageHost } from '#lib/urls.ts';
import { deleteItem, getItem, insertItem, type ListQuery, listItems, type StoredItem } from './collection.ts';
import { itemFromFailedCondition } from './condition.ts';
import { domainNameGuardKey, itemKey } from './keys.ts';

const kind = 'domain';

export type DomainItem = StoredItem & { indexPage: string | null; notFoundPage: string | null };
export type NewDomain = { name: string; indexPage: string | null; notFoundPage: string | null };
/** `null` clears a page; `undefined` leaves it unchanged. The name never changes. */
export type DomainChanges = { indexPage?: string | null; notFoundPage?: string | null };

export type PageAttribute = keyof DomainChanges;
const pageAttributes: readonly PageAttribute[] = ['indexPage', 'notFoundPage'];

/** A page would point at the domain itself (so redirect to itself): `attributes` are the pages at fault. */
export class PageLoopError extends Error {
  constructor(readonly attributes: readonly PageAttribute[]) {
    super(`Page points at the domain itself: ${attributes.join(', ')}`);
    this.name = 'PageLoopError';
  }
}

const hostOf = pageHost;

export const showDomain = (db: Db, owner: string, id: number) => getItem<DomainItem>(db, owner, kind, id);

/** Search finds a name by its stored ASCII form or its Unicode form, computed: old items need no migration. */
const matchesName = (item: DomainItem, search: string) => domainNameMatches(item.name, search);

export const listDomains = (db: Db, owner: string, query: ListQuery) =>
  listItems<DomainItem>(db, owner, kind, query, matchesName);

export const storeDomain = (db: Db, owner: string, domain: NewDomain) =>
  insertItem<DomainItem>(db, owner, kind, domainNameGuardKey(domain.name), (id, now) => ({
    id,
    name: domain.name,
    fold: domain.name,
    indexPage: domain.indexPage,
    notFoundPage: domain.notFoundPage,
    createdAt: now,
    updatedAt: now,
  }));

export const destroyDomain = (db: Db, owner: string, id: number) =>
  deleteItem(db, owner, kind, id, (item) => domainNameGuardKey(item.name));

/**
 * One conditional write: the item must exist and no new page may point at the domain's own name.
 * The stored name is only known to DynamoDB, so the loop check is part of the condition.
 */
export async function updateDomain(db: Db, owner: string, id: number, changes: DomainChanges): Promise<DomainItem> {
  const present = pageAttributes.filter((field) => changes[field] !== undefined);
  if (present.length === 0) return showDomain(db, owner, id);
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': new Date().toISOString() };
  const sets = ['#updatedAt = :updatedAt'];
  const conditions = ['attribute_exists(pk)'];
  for (const field of present) {
    const value = changes[field] as string | null;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
    if (value !== null) {
      // DynamoDB refuses an unused name, so `#name` is only declared when a page is set (not cleared).
      names['#name'] = 'name';
      values[`:${field}Host`] = hostOf(value);
      conditions.push(`#name <> :${field}Host`);
    }
  }
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(owner, kind, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return Attributes as DomainItem;
  } catch (error) {
    const current = itemFromFailedCondition<DomainItem>(error);
    if (!current) throw new NotFoundError();
    const loops = present.filter((field) => changes[field] && hostOf(changes[field]) === current.name);
    throw new PageLoopError(loops);
  }
}
