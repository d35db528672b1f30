/**
 * The edge sweep (`functions/edge/sweep.ts`, docs/deployment.md "The sweep"): a function of its own, invoked by an
 * EventBridge Scheduler schedule every 5 minutes. Each run publishes the edge's quota usage, then goes on with
 * the sweep's pass from the cursor it keeps in the table, through every shard's store a page at a time, until
 * its time budget is spent; a pass starts at most once an hour. Its timeout is the budget plus the worst the
 * last host can take with its clients' retries (`sweepTimeout`), inside the schedule's 5 minutes: runs never
 * overlap. A failed run is retried twice, then lands in the edge sync's dead-letter queue, which alarms.
 *
 * Its role has what the sweep calls and nothing else: the cursor item (GetItem and PutItem, on keys that start
 * `EDGESWEEP` only), each shard's store (list, read, delete a key, describe), the stage's tenants (find by
 * domain, read the certificate, delete), and ACM (delete a certificate, count them).
 */
import { Duration, Stack, Token, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Schedule } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { edgeSweepCursorKey } from '#lib/edge/data/sweep-cursor.ts';
import { SWEEP_BUDGET_MS, SWEEP_CALLS_PER_HOST, worstCallMs } from '#lib/edge/sweep-settings.ts';
import { type StageConfig, serviceName } from '../stages.ts';
import { ApiFunction } from './api-function.ts';
import { recurringSchedule } from './recurring-schedule.ts';

/** The sweep Lambda: its handler under `functions/`, and its name after the stack's (`<stack>-edge-sweep`). */
export const edgeSweepFunction = { name: 'edge-sweep', handler: 'edge/sweep' } as const;

/** How often the schedule invokes it. */
export const EDGE_SWEEP_EVERY = Duration.minutes(5);

/**
 * Its timeout: the budget, then the last host's worst (every call of it at its worst, with retries), then the
 * cursor's save and the usage's measure (a few calls more), rounded up to the second.
 */
export const sweepTimeout = (): Duration =>
  Duration.seconds(Math.ceil((SWEEP_BUDGET_MS + (SWEEP_CALLS_PER_HOST + 4) * worstCallMs()) / 1000));

/** One shard, as the stack made it: its store's ARN and its distribution's id. */
export type EdgeSweepShard = { storeArn: string; distributionId: string };

export type EdgeSweepProps = {
  config: StageConfig;
  table: ITable;
  /** Every shard, in shard order. */
  shards: readonly EdgeSweepShard[];
  connectionGroupId: string;
  /** Where failed runs go (the edge sync's queue: it alarms). */
  deadLetters: IQueue;
};

export class EdgeSweep extends Construct {
  readonly function: ApiFunction;
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: EdgeSweepProps) {
    super(scope, id);
    const { config, table, shards, deadLetters } = props;
    const name = `${serviceName}-${config.stage}`;

    this.function = new ApiFunction(this, 'function', {
      handler: edgeSweepFunction.handler,
      functionName: `${name}-${edgeSweepFunction.name}`,
      description: "Sweeps the edge's old tombstones, tenants and certificates; publishes its quota usage",
      config,
      timeout: sweepTimeout(),
      deadLetterQueue: deadLetters,
    });
    const fn = this.function;
    fn.addEnvironment('TABLE_NAME', table.tableName);
    fn.addEnvironment('EDGE_KVS_ARNS', shards.map((shard) => shard.storeArn).join(','));
    fn.addEnvironment('EDGE_DISTRIBUTION_IDS', shards.map((shard) => shard.distributionId).join(','));
    fn.addEnvironment('EDGE_CONNECTION_GROUP_ID', props.connectionGroupId);
    fn.addEnvironment('EDGE_TENANT_PREFIX', name);

    // The cursor item only: its partition key is the one key it may read or write.
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:GetItem', 'dynamodb:PutItem'],
        resources: [table.tableArn],
        conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [edgeSweepCursorKey.pk] } },
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cloudfront-keyvaluestore:ListKeys',
          'cloudfront-keyvaluestore:DescribeKeyValueStore',
          'cloudfront-keyvaluestore:GetKey',
          'cloudfront-keyvaluestore:DeleteKey',
        ],
        resources: shards.map((shard) => shard.storeArn),
      }),
    );
    const { partition, account } = Stack.of(this);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cloudfront:GetDistributionTenantByDomain',
          'cloudfront:GetManagedCertificateDetails',
          'cloudfront:DeleteDistributionTenant',
        ],
        resources: [`arn:${partition}:cloudfront::${account}:distribution-tenant/*`],
      }),
    );
    // CloudFront's managed certificates are ACM's in us-east-1 ("Requirements for using SSL/TLS certificates").
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['acm:DeleteCertificate'],
        resources: [`arn:${partition}:acm:us-east-1:${account}:certificate/*`],
      }),
    );
    // ListCertificates has no resource type in the Service Authorization Reference: only "*" allows it.
    fn.addToRolePolicy(new PolicyStatement({ actions: ['acm:ListCertificates'], resources: ['*'] }));

    const asNagNames = (value: string, parameter: string) => (Token.isUnresolved(value) ? `<${parameter}>` : value);
    const nagPartition = asNagNames(partition, 'AWS::Partition');
    const nagAccount = asNagNames(account, 'AWS::AccountId');
    Validations.of(fn.role as IRole).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::arn:${nagPartition}:cloudfront::${nagAccount}:distribution-tenant/*]`,
        reason: 'Tenants are created at run time, one per active domain: their ids are not known when deploying.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:${nagPartition}:acm:us-east-1:${nagAccount}:certificate/*]`,
        reason: "CloudFront requests each tenant's certificate at run time: their ids are not known when deploying.",
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'acm:ListCertificates has no resource type in the Service Authorization Reference (only "*" allows it); X-Ray, as every function.',
      },
    );

    this.schedule = recurringSchedule(this, 'schedule', {
      scheduleName: `${name}-edge-sweep`,
      description: 'Sweeps the edge and publishes its quota usage (docs/deployment.md, The sweep)',
      every: EDGE_SWEEP_EVERY,
      target: fn,
      deadLetterQueue: deadLetters,
    });
  }
}
