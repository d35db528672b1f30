/**
 * The single table's shape: the one definition read by CDK, `npm start`, the key tool and the tests.
 * Generic attribute names keep the table free of entity-specific schema.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Sorts an owner's items by case-folded name; a local index so reads stay strongly consistent. */
  byNameIndex: { indexName: 'byName', sortKey: 'lsi1sk' },
} as const;

export type TableKey = { pk: string; sk: string };

/** CreateTable input for DynamoDB Local and tests; CDK builds the same table from `tableDefinition`. */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, byNameIndex } = tableDefinition;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [partitionKey, sortKey, byNameIndex.sortKey].map((name) => ({
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
  };
}
