/**
 * The single table's shape: the one definition read by CDK, `npm start`, the key tool and the tests.
 * Generic attribute names keep the table free of entity-specific schema.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Sorts an owner's items by case-folded name; a local index so reads stay strongly consistent. */
  byNameIndex: { indexName: 'byName', sortKey: 'lsi1sk' },
  /**
   * Active domains by when their DNS records are next due for a check (the hourly re-check). Sparse: only
   * active domains carry its keys. The partition is one of `shards` (from the owner and id), so no single
   * partition takes every domain's writes; a check queries each shard for what is due. Keys only: the check
   * reads the domain itself, strongly consistent.
   */
  dueCheckIndex: { indexName: 'byCheckDue', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', shards: 16 },
  /**
   * The owners' feed heads by when their feed last changed: every change's transaction sets the head's keys
   * (`advanceHead`), so a follower of every owner's feed (the local stack's, `infra/local/edge-feed.ts`) finds
   * the owners with changes since a time by Query, never by scanning the table. Sparse: only feed heads, and
   * the local stack's pending webhook attempts (partition `LOCAL#webhook-jobs`), carry its keys. The partition
   * is one of `shards` (from the owner). Keys only.
   */
  feedChangeIndex: { indexName: 'byFeedChange', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', shards: 8 },
  /**
   * Epoch seconds after which DynamoDB deletes an item (TTL): events after 30 days, idempotency records after
   * 24 hours. Readers ignore an expired item that TTL has not deleted yet (that can take a day or two).
   */
  timeToLiveAttribute: 'ttl',
  /** New images of changed items, which EventBridge Pipes filters down to the change feed's events (AWS only). */
  streamViewType: 'NEW_IMAGE',
} as const;

export type TableKey = { pk: string; sk: string };

/**
 * CreateTable input for DynamoDB Local and tests; CDK builds the same table from `tableDefinition`. TTL is not
 * part of CreateTable: `ensureTable` (infra/local/dynamodb-local.ts) turns it on with `timeToLiveInput`. The
 * stream is AWS's only (it feeds the event bus; nothing reads it locally, and DynamoDB Local slows down as
 * it keeps every record).
 */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, byNameIndex, dueCheckIndex, feedChangeIndex } = tableDefinition;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [
      partitionKey,
      sortKey,
      byNameIndex.sortKey,
      dueCheckIndex.partitionKey,
      dueCheckIndex.sortKey,
      feedChangeIndex.partitionKey,
      feedChangeIndex.sortKey,
    ].map((name) => ({
      AttributeName: name,
      AttributeType: 'S' as const,
    })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    LocalSecondaryIndexes: [
      {
        IndexName: byNameIndex.indexName,
        KeySchema: [
          { AttributeName: partitionKey, KeyType: 'HASH' as const },
          { AttributeName: byNameIndex.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as const },
      },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: dueCheckIndex.indexName,
        KeySchema: [
          { AttributeName: dueCheckIndex.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: dueCheckIndex.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' as const },
      },
      {
        IndexName: feedChangeIndex.indexName,
        KeySchema: [
          { AttributeName: feedChangeIndex.partitionKey, KeyType: 'HASH' as const },
          { AttributeName: feedChangeIndex.sortKey, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' as const },
      },
    ],
  };
}

/** UpdateTimeToLive input that turns on the table's TTL attribute. */
export const timeToLiveInput = (tableName: string) => ({
  TableName: tableName,
  TimeToLiveSpecification: { AttributeName: tableDefinition.timeToLiveAttribute, Enabled: true },
});
