/**
 * Non-transactional reads under per-item visibility (see visibility.ts): the target's answer is rewritten so
 * that every still-hidden item is served as it was before its transaction.
 * - GetItem, BatchGetItem: per key, the before-image (no item if it did not exist).
 * - Query, Scan: a hidden item is replaced by its before-image, or dropped when it did not exist before (or,
 *   on an index, when its index key changed: it then goes back where its old key belongs, if on this page).
 *   An item a hidden transaction deleted is put back, in key order, when its old image is on this page: for a
 *   Query whose key condition key-condition.ts reads and that has no FilterExpression; for a Scan only when the
 *   whole result is one page (no ExclusiveStartKey, no LastEvaluatedKey, one segment, no FilterExpression).
 * Not modelled: FilterExpression on before-images (replaced ones are not re-filtered, deleted ones not put back),
 * Select COUNT (answered by the target as is), Limit (a page can grow past it), an index's own projection (its
 * before-images carry every attribute, as the tables here project ALL), ties of a non-unique index key at page
 * boundaries, and a ProjectionExpression's nested paths (their whole top-level attribute is served).
 * To tell items apart, the key attributes are added to a projection and taken out of the answer again.
 */
import { type KeyCondition, parseKeyCondition, satisfies } from './key-condition.ts';
import {
  type AttributeValue,
  compareKeyValues,
  type Item,
  itemId,
  type Json,
  type KeySchema,
  keyNames,
  keyOf,
  project,
  projectedNames,
  sameValue,
  type TableSchema,
} from './protocol.ts';
import type { HiddenImage, Visibility } from './visibility.ts';

export type ReadPlan = {
  /** What to forward: the request, with key attributes added to its projection. */
  request: Json;
  /** The request was changed, so the answer must be rewritten even when nothing is hidden. */
  augmented: boolean;
  /** Rewrites the target's 200 answer in place; returns how many hidden items it served. */
  finish(response: Json): number;
};

export const readOperations = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan']);

/** The tables a read needs the key schema of. */
export const readTables = (operation: string, request: Json): string[] =>
  operation === 'BatchGetItem' ? Object.keys((request.RequestItems ?? {}) as Json) : [String(request.TableName)];

type Projection = { requested: string[] | undefined; added: string[] };

/** Adds the key attributes to the request's projection (mutating it); `added` are to be taken out again. */
function addKeys(request: Json, keys: string[]): Projection {
  if (Array.isArray(request.AttributesToGet)) {
    const requested = request.AttributesToGet as string[];
    const added = keys.filter((name) => !requested.includes(name));
    request.AttributesToGet = [...requested, ...added];
    return { requested, added };
  }
  if (typeof request.ProjectionExpression !== 'string') return { requested: undefined, added: [] };
  const names = (request.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const requested = projectedNames(request.ProjectionExpression, names);
  const added = keys.filter((name) => !requested.includes(name));
  const placeholders = Object.fromEntries(added.map((name, index) => [`#harnessKey${index}`, name]));
  if (added.length > 0) {
    request.ProjectionExpression = [request.ProjectionExpression, ...Object.keys(placeholders)].join(', ');
    request.ExpressionAttributeNames = { ...names, ...placeholders };
  }
  return { requested, added };
}

const strip = (item: Item, added: string[]): Item =>
  added.length === 0 ? item : Object.fromEntries(Object.entries(item).filter(([name]) => !added.includes(name)));

export function planRead(
  operation: string,
  original: Json,
  schemas: Map<string, TableSchema>,
  view: Visibility,
): ReadPlan | undefined {
  const request = structuredClone(original);
  if (operation === 'GetItem') return planGet(request, view);
  if (operation === 'BatchGetItem') {
    const tables = Object.keys((request.RequestItems ?? {}) as Json);
    return tables.every((table) => schemas.has(table)) ? planBatchGet(request, schemas, view) : undefined;
  }
  const table = String(request.TableName);
  const schema = schemas.get(table);
  const index = typeof request.IndexName === 'string' ? schema?.indexes.get(request.IndexName) : schema?.key;
  if (!schema || !index || request.Select === 'COUNT') return undefined;
  const projection = addKeys(request, [...new Set([...keyNames(schema.key), ...keyNames(index)])]);
  return {
    request,
    augmented: projection.added.length > 0,
    finish: (response) => finishPage(operation, request, response, { table, schema, index, projection, view }),
  };
}

function planGet(request: Json, view: Visibility): ReadPlan {
  const table = String(request.TableName);
  const id = itemId(table, request.Key as Item);
  const { requested } = addKeys(request, []);
  return {
    request,
    augmented: false,
    finish(response) {
      const image = view.lookup(id);
      if (!image) return 0;
      if (image.before) response.Item = project(image.before, requested);
      else delete response.Item;
      return 1;
    },
  };
}

function planBatchGet(request: Json, schemas: Map<string, TableSchema>, view: Visibility): ReadPlan {
  const tables = Object.entries(request.RequestItems as Record<string, Json>).map(([table, spec]) => {
    const schema = schemas.get(table) as TableSchema;
    return { table, spec, schema, projection: addKeys(spec, keyNames(schema.key)) };
  });
  return {
    request,
    augmented: tables.some(({ projection }) => projection.added.length > 0),
    finish(response) {
      let hidden = 0;
      const responses = (response.Responses ?? {}) as Record<string, Item[]>;
      const unprocessed = (response.UnprocessedKeys ?? {}) as Record<string, { Keys: Item[] }>;
      for (const { table, spec, schema, projection } of tables) {
        const served = new Set<string>();
        const skipped = new Set((unprocessed[table]?.Keys ?? []).map((key) => itemId(table, key)));
        const items = (responses[table] ?? []).flatMap((item) => {
          const key = keyOf(item, schema.key);
          const image = key ? view.lookup(itemId(table, key)) : undefined;
          if (key) served.add(itemId(table, key));
          if (!image) return [strip(item, projection.added)];
          hidden += 1;
          return image.before ? [project(image.before, projection.requested)] : [];
        });
        // A key the target found no item for, while its before-image is still served: deleted by a hidden one.
        for (const key of spec.Keys as Item[]) {
          const id = itemId(table, key);
          const image = served.has(id) || skipped.has(id) ? undefined : view.lookup(id);
          if (!image?.before) continue;
          hidden += 1;
          items.push(project(image.before, projection.requested));
        }
        responses[table] = items;
      }
      response.Responses = responses;
      return hidden;
    },
  };
}

type PageContext = {
  table: string;
  schema: TableSchema;
  index: KeySchema;
  projection: Projection;
  view: Visibility;
};
/** An item of the page: `full` orders it, `emitted` is what the reader gets. */
type Entry = { full: Item; emitted: Item };

function finishPage(operation: string, request: Json, response: Json, context: PageContext): number {
  const { table, schema, index, projection, view } = context;
  const served = new Set<string>();
  const replaced = new Set<string>();
  const entries: Entry[] = [];
  for (const item of (response.Items ?? []) as Item[]) {
    const key = keyOf(item, schema.key);
    const image = key ? view.lookup(itemId(table, key)) : undefined;
    if (!image) {
      entries.push({ full: item, emitted: strip(item, projection.added) });
      continue;
    }
    served.add(image.id);
    // Same index key as now: the before-image takes the item's place. Otherwise it belongs elsewhere.
    if (image.before && keyNames(index).every((name) => sameValue(image.before?.[name], item[name]))) {
      replaced.add(image.id);
      entries.push({ full: image.before, emitted: project(image.before, projection.requested) });
    }
  }
  const forward = request.ScanIndexForward !== false;
  for (const image of putBack(operation, request, response, context)) {
    if (replaced.has(image.id) || !image.before) continue;
    served.add(image.id);
    insertOrdered(
      entries,
      { full: image.before, emitted: project(image.before, projection.requested) },
      index,
      forward,
    );
  }
  if (served.size === 0 && projection.added.length === 0) return 0;
  response.Items = entries.map((entry) => entry.emitted);
  response.Count = entries.length;
  return served.size;
}

/** The hidden before-images that belong on this page (see the header for when the harness knows). */
function putBack(operation: string, request: Json, response: Json, context: PageContext): HiddenImage[] {
  const { table, index, view } = context;
  if (request.FilterExpression !== undefined || request.ScanFilter !== undefined) return [];
  const inIndex = (image: HiddenImage) => keyNames(index).every((name) => image.before?.[name] !== undefined);
  if (operation === 'Scan') {
    const onePage =
      !request.ExclusiveStartKey && !response.LastEvaluatedKey && Number(request.TotalSegments ?? 1) === 1;
    return onePage ? view.inTable(table).filter(inIndex) : [];
  }
  const condition = parseKeyCondition(
    request.KeyConditionExpression as string | undefined,
    request.ExpressionAttributeNames as Record<string, string> | undefined,
    request.ExpressionAttributeValues as Record<string, AttributeValue> | undefined,
    index,
  );
  if (!condition) return [];
  const onPage = pageBounds(request, response, index);
  return view
    .inTable(table)
    .filter((image) => inIndex(image) && matches(image.before as Item, condition, index, onPage));
}

function matches(item: Item, condition: KeyCondition, index: KeySchema, onPage: (value: AttributeValue) => boolean) {
  if (!sameValue(item[index.hash], condition.hash)) return false;
  const range = index.range ? item[index.range] : undefined;
  if (!range) return onPage({});
  return (!condition.range || satisfies(range, condition.range)) && onPage(range);
}

/** Is a range value within the page: after the ExclusiveStartKey, up to the LastEvaluatedKey (in read order)? */
function pageBounds(request: Json, response: Json, index: KeySchema): (value: AttributeValue) => boolean {
  const direction = request.ScanIndexForward === false ? -1 : 1;
  const start = index.range ? (request.ExclusiveStartKey as Item | undefined)?.[index.range] : undefined;
  const end = index.range ? (response.LastEvaluatedKey as Item | undefined)?.[index.range] : undefined;
  if (!index.range) return () => !request.ExclusiveStartKey && !response.LastEvaluatedKey;
  return (value) =>
    (!start || compareKeyValues(value, start) * direction > 0) &&
    (!end || compareKeyValues(value, end) * direction <= 0);
}

/** Among the items of its partition, in range-key order; after everything when its partition is not there. */
function insertOrdered(entries: Entry[], entry: Entry, index: KeySchema, forward: boolean): void {
  const hash = entry.full[index.hash];
  const range = index.range ? entry.full[index.range] : undefined;
  let position = entries.length;
  let sawPartition = false;
  for (const [at, other] of entries.entries()) {
    if (!sameValue(other.full[index.hash], hash)) {
      if (sawPartition) {
        position = at;
        break;
      }
      continue;
    }
    sawPartition = true;
    const otherRange = index.range ? other.full[index.range] : undefined;
    if (range && otherRange && compareKeyValues(otherRange, range) * (forward ? 1 : -1) > 0) {
      position = at;
      break;
    }
  }
  entries.splice(position, 0, entry);
}
