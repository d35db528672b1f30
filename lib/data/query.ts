/** The one Query loop: every list, the feed and the key listing page through DynamoDB with it. */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';

export type StartKey = Record<string, unknown>;

/**
 * Yields DynamoDB's pages of a Query from `start` (each with where it stopped), following `LastEvaluatedKey`
 * until the end or until the consumer stops. `limit` caps the items asked for in all (each page asks for the
 * rest, or `pageSize()` if smaller); without either, DynamoDB's 1 MB pages are read as they come.
 */
export async function* paginateQuery(
  db: Db,
  input: QueryCommandInput,
  { start, limit, pageSize }: { start?: StartKey; limit?: number; pageSize?: () => number } = {},
): AsyncGenerator<{ items: Record<string, unknown>[]; next: StartKey | undefined }> {
  let cursor = start;
  let read = 0;
  do {
    const remaining = limit === undefined ? undefined : limit - read;
    if (remaining !== undefined && remaining <= 0) return;
    const size = pageSize === undefined ? remaining : Math.max(1, Math.min(remaining ?? Infinity, pageSize()));
    const page = await db.client.send(
      new QueryCommand({ ...input, ...(size === undefined ? {} : { Limit: size }), ExclusiveStartKey: cursor }),
    );
    const items = page.Items ?? [];
    read += items.length;
    cursor = page.LastEvaluatedKey;
    yield { items, next: cursor };
  } while (cursor);
}

/** Up to `limit` items from `start`, in order (a page cut short by DynamoDB is followed). */
export async function queryItems(db: Db, input: QueryCommandInput, start: StartKey | undefined, limit: number) {
  const items: Record<string, unknown>[] = [];
  for await (const page of paginateQuery(db, input, { start, limit })) items.push(...page.items);
  return items;
}
