/**
 * The single table, built from the shared definition (`lib/data/table.ts`) that DynamoDB Local and the tests use.
 */
import { Validations } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableDefinition } from '#lib/data/table.ts';
import { type StageConfig, serviceName } from '../stages.ts';

export function dataTable(scope: Construct, config: StageConfig): Table {
  const { partitionKey, sortKey, byNameIndex, dueCheckIndex, feedChangeIndex, timeToLiveAttribute, streamViewType } =
    tableDefinition;
  const table = new Table(scope, 'table', {
    tableName: `${serviceName}-${config.stage}`,
    partitionKey: { name: partitionKey, type: AttributeType.STRING },
    sortKey: { name: sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    // Events (30 days) and idempotency records (24 hours) expire; the stream feeds the event bus.
    timeToLiveAttribute,
    stream: StreamViewType[streamViewType],
    encryption: TableEncryption.AWS_MANAGED,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: config.table.pointInTimeRecovery },
    deletionProtection: config.table.deletionProtection,
    removalPolicy: config.removalPolicy,
  });
  table.addLocalSecondaryIndex({
    indexName: byNameIndex.indexName,
    sortKey: { name: byNameIndex.sortKey, type: AttributeType.STRING },
    projectionType: ProjectionType.ALL,
  });
  // A deployed table gains it in place: CloudFormation creates one global index per update, and backfills it
  // from the items (active domains written before it existed have no keys for it: `npm run migrate`).
  table.addGlobalSecondaryIndex({
    indexName: dueCheckIndex.indexName,
    partitionKey: { name: dueCheckIndex.partitionKey, type: AttributeType.STRING },
    sortKey: { name: dueCheckIndex.sortKey, type: AttributeType.STRING },
    projectionType: ProjectionType.KEYS_ONLY,
  });
  // The feed heads by their last change: what the local stack's follower queries (on AWS the stream feeds the
  // bus instead). Every change keeps its keys; one per update, as above.
  table.addGlobalSecondaryIndex({
    indexName: feedChangeIndex.indexName,
    partitionKey: { name: feedChangeIndex.partitionKey, type: AttributeType.STRING },
    sortKey: { name: feedChangeIndex.sortKey, type: AttributeType.STRING },
    projectionType: ProjectionType.KEYS_ONLY,
  });
  if (!config.table.pointInTimeRecovery) {
    Validations.of(table).acknowledge({
      id: 'AwsSolutions-DDB3',
      reason: `The ${config.stage} stage holds disposable test data; point-in-time recovery is on where data matters (prod).`,
    });
  }
  return table;
}
