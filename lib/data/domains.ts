import type { Db } from '#lib/dynamodb.ts';
import { domainNameMatches } from '#lib/idn.ts';
import { pageHost } from '#lib/urls.ts';
import type { WriteOptions } from './changes.ts';
import {
  deleteItem,
  getItem,
  insertItem,
  type ListQuery,
  listItems,
  type StoredItem,
  updateItem,
} from './collection.ts';
import { domainNameGuardKey } from './keys.ts';
import { assertVersion, versionOf } from './version.ts';

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

export const storeDomain = (db: Db, owner: string, domain: NewDomain, options?: WriteOptions<DomainItem>) =>
  insertItem<DomainItem>(
    db,
    owner,
    kind,
    domainNameGuardKey(domain.name),
    (id, now) => ({
      id,
      name: domain.name,
      fold: domain.name,
      indexPage: domain.indexPage,
      notFoundPage: domain.notFoundPage,
      createdAt: now,
      updatedAt: now,
    }),
    options,
  );

export const destroyDomain = (db: Db, owner: string, id: number, options?: WriteOptions<StoredItem>) =>
  deleteItem(db, owner, kind, id, (item) => domainNameGuardKey(item.name), options);

/**
 * Updates a domain's pages (`updateItem`: read, then one transaction with the event, conditional on the
 * version read). The name never changes, so the read one is the one a page must not point at.
 */
export async function updateDomain(
  db: Db,
  owner: string,
  id: number,
  changes: DomainChanges,
  options: WriteOptions<DomainItem> = {},
): Promise<DomainItem> {
  const present = pageAttributes.filter((field) => changes[field] !== undefined);
  if (present.length === 0) {
    const current = await showDomain(db, owner, id);
    assertVersion(options.ifMatch, versionOf(current));
    return current;
  }
  return updateItem<DomainItem>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const loops = present.filter((field) => changes[field] && hostOf(changes[field]) === current.name);
      if (loops.length > 0) throw new PageLoopError(loops);
      const pages = Object.fromEntries(present.map((field) => [field, changes[field]]));
      return { item: { ...current, ...pages, updatedAt: now } };
    },
    options,
  );
}
