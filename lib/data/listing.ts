/**
 * Listing an owner's collection of one kind, always by Query (never Scan): a page in id or name order, from a
 * cursor's position or by walking the offset, and a search that filters a walk of the collection.
 */
import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { tableDefinition } from '#lib/data/table.ts';
import type { Kind } from '#lib/kinds.ts';
import { type ResourceRecord, recordOf } from './item.ts';
import { collectionPrefix, counterKey, foldName, itemKey, nameSortKey, ownerPartition, SEARCH_MAX } from './keys.ts';
import { paginateQuery, queryItems, type StartKey } from './query.ts';

export type SortBy = 'id' | 'name';
export type SortDirection = 'asc' | 'desc';
/** Where a record stands in both orders (its id; its folded name, as its item is sorted by): a cursor holds it. */
export type Position = { id: number; fold: string };

export type ListQuery = {
  search: string;
  sortBy: SortBy;
  sort: SortDirection;
  perPage: number;
  page: number;
  /** Where the previous page ended (from a cursor): read from there instead of walking the offset. */
  after?: Position;
};

/** A page of records, the collection's total, and where the page's last record stands (none: an empty page). */
export type ListResult<R> = { records: R[]; total: number; end?: Position };

type StoredItem = Record<string, unknown> & { id: number; fold: string };

/** The page of records the items store, ending where the last item stands in the index it was read from. */
function pageOf<R extends ResourceRecord>(kind: Kind, items: readonly StoredItem[], total: number): ListResult<R> {
  const last = items.at(-1);
  return {
    records: items.map((item) => recordOf<R>(kind, item)),
    total,
    ...(last ? { end: { id: last.id, fold: last.fold } } : {}),
  };
}

export async function countItems(db: Db, owner: string, kind: Kind): Promise<number> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: counterKey(owner, kind), ConsistentRead: true }),
  );
  return (Item?.total as number | undefined) ?? 0;
}

/**
 * The sort-key range of an owner's items of one kind: from `SPACE#` to `SPACE$` (the prefix's last character
 * plus one), the same range as `begins_with(sk, 'SPACE#')` since no key is exactly `SPACE$`. DynamoDB serves
 * both alike; DynamoDB Local answers BETWEEN from its index but walks the partition for begins_with in some
 * directions (a 10-item page took 30-60 ms at 100,000 spaces instead of 3 ms: docs/performance.md).
 */
export function collectionRange(kind: Kind): { from: string; to: string } {
  const from = collectionPrefix(kind);
  return { from, to: `${from.slice(0, -1)}${String.fromCharCode(from.charCodeAt(from.length - 1) + 1)}` };
}

function baseQuery(db: Db, owner: string, kind: Kind, query: ListQuery): QueryCommandInput {
  const byName = query.sortBy === 'name';
  const { from, to } = collectionRange(kind);
  return {
    TableName: db.tableName,
    ...(byName ? { IndexName: tableDefinition.byNameIndex.indexName } : {}),
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'pk', '#sk': byName ? tableDefinition.byNameIndex.sortKey : 'sk' },
    ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':from': from, ':to': to },
    ScanIndexForward: query.sort === 'asc',
    ConsistentRead: true,
  };
}

function startKey(owner: string, kind: Kind, query: ListQuery, after: Position) {
  const key = itemKey(owner, kind, after.id);
  return query.sortBy === 'name' ? { ...key, lsi1sk: nameSortKey(kind, after.fold, after.id) } : key;
}

/** Walks past `count` items reading keys only; returns where the walk stopped, or null past the end. */
async function skipItems(db: Db, input: QueryCommandInput, count: number): Promise<StartKey | null> {
  // A start key holds exactly the table's keys, plus the index's sort key when querying the index.
  const keyNames = input.IndexName ? ['#pk', 'sk', tableDefinition.byNameIndex.sortKey] : ['#pk', 'sk'];
  const keys = await queryItems(db, { ...input, ProjectionExpression: keyNames.join(', ') }, undefined, count);
  return keys.length === count ? (keys.at(-1) as StartKey) : null;
}

/** Decides in code whether a record matches the folded search term (`foldName`). */
export type SearchMatch<R> = (record: R, search: string) => boolean;

/**
 * Search is a substring match, so it filters a walk of the owner's collection: by default DynamoDB filters
 * on the folded name. With `match`, the code filters instead. That reads exactly as much (a FilterExpression
 * is applied after the read: it saves neither capacity nor pages) and costs only the transfer of the items
 * that do not match; in exchange the match can use values computed from the item, so it needs no stored
 * attribute and items stored before it existed match too.
 */
async function searchItems<R extends ResourceRecord>(
  db: Db,
  kind: Kind,
  input: QueryCommandInput,
  query: ListQuery,
  match?: SearchMatch<R>,
): Promise<ListResult<R>> {
  const offset = (query.page - 1) * query.perPage;
  const filtered: QueryCommandInput = match
    ? input
    : {
        ...input,
        FilterExpression: 'contains(#fold, :search)',
        ExpressionAttributeNames: { ...input.ExpressionAttributeNames, '#fold': 'fold' },
        ExpressionAttributeValues: { ...input.ExpressionAttributeValues, ':search': query.search },
      };
  const items: StoredItem[] = [];
  let total = 0;
  for await (const page of paginateQuery(db, filtered)) {
    for (const item of page.items as StoredItem[]) {
      if (match && !match(recordOf<R>(kind, item), query.search)) continue;
      if (total >= offset && items.length < query.perPage) items.push(item);
      total++;
    }
  }
  return pageOf<R>(kind, items, total);
}

/**
 * One page of an owner's collection. The first page and cursor pages read about `perPage` items,
 * in parallel with the counter; `page=N` without a cursor walks the offset; search walks the collection,
 * matching the folded name or, when given, `match` (a search longer than `SEARCH_MAX` matches nothing).
 */
export async function listRecords<R extends ResourceRecord>(
  db: Db,
  owner: string,
  kind: Kind,
  query: ListQuery,
  match?: SearchMatch<R>,
): Promise<ListResult<R>> {
  const input = baseQuery(db, owner, kind, query);
  const search = foldName(query.search);
  // Longer than any name: it matches none (never every item), without walking the collection.
  if ([...search].length > SEARCH_MAX) return { records: [], total: 0 };
  if (search !== '') return searchItems<R>(db, kind, input, { ...query, search }, match);

  const { after, page, perPage } = query;
  if (after || page === 1) {
    const start = after ? startKey(owner, kind, query, after) : undefined;
    const [items, total] = await Promise.all([queryItems(db, input, start, perPage), countItems(db, owner, kind)]);
    return pageOf<R>(kind, items as StoredItem[], total);
  }
  const total = await countItems(db, owner, kind);
  const offset = (page - 1) * perPage;
  if (offset >= total) return { records: [], total };
  const start = await skipItems(db, input, offset);
  const items = start ? await queryItems(db, input, start, perPage) : [];
  return pageOf<R>(kind, items as StoredItem[], total);
}
