/**
 * Finding the active domains whose records are due for their hourly check: the sparse due-check index
 * (`lib/data/table.ts`), queried shard by shard for keys due at or before `now`. Only active domains carry its
 * keys (`lib/domains/data/domains.ts` sets them on activation and on every check, and removes them when a domain
 * returns to pending); a check reads the domain itself before it writes anything.
 */
import type { Db } from '#lib/data/dynamodb.ts';
import { dueCheckShards, itemIdOf, partitionOwner } from '#lib/data/keys.ts';
import { paginateQuery } from '#lib/data/query.ts';
import { tableDefinition } from '#lib/data/table.ts';

export type DueDomain = { owner: string; id: number };

/** Every due domain, oldest due first within each shard; each shard read in pages of `pageSize`. */
export async function* dueDomains(db: Db, now: Date, { pageSize = 100 } = {}): AsyncGenerator<DueDomain> {
  const { indexName, partitionKey, sortKey } = tableDefinition.dueCheckIndex;
  for (const shard of dueCheckShards()) {
    const pages = paginateQuery(
      db,
      {
        TableName: db.tableName,
        IndexName: indexName,
        KeyConditionExpression: '#shard = :shard AND #due <= :now',
        ExpressionAttributeNames: { '#shard': partitionKey, '#due': sortKey },
        ExpressionAttributeValues: { ':shard': shard, ':now': now.toISOString() },
      },
      { pageSize: () => pageSize },
    );
    for await (const page of pages) {
      for (const key of page.items) {
        const owner = partitionOwner(String(key.pk));
        const id = itemIdOf('domain', String(key.sk));
        if (owner !== null && id !== null) yield { owner, id };
      }
    }
  }
}
