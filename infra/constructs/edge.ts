/**
 * Domains that serve, on AWS (docs/deployment.md, "The edge"): one CloudFront multi-tenant distribution
 * (CloudFront SaaS Manager) whose viewer-request CloudFront Function answers every visitor from a CloudFront
 * KeyValueStore, never calling its origin; one tenant per active domain, with a CloudFront-managed certificate,
 * created and disabled by the edge sync function, which an EventBridge rule sends every domain event of the
 * bus; the rule's retries end in a dead-letter queue with an alarm.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import {
  CfnDistribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionRuntime,
  KeyValueStore,
} from 'aws-cdk-lib/aws-cloudfront';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '#lib/events-bus.ts';
import { type EdgeSettings, edgeFunctionSource } from '../edge-function.ts';
import { type StageConfig, serviceName } from '../stages.ts';
import { ApiFunction } from './api-function.ts';
import { deadLetterAlarm } from './dead-letters.ts';

export type EdgeProps = {
  config: StageConfig;
  table: ITable;
  bus: IEventBus;
  alarms: ITopic;
  settings: EdgeSettings;
  /** Where the distribution would send a request the function did not answer (it answers them all). */
  originDomainName: string;
};

/** The domain events the sync follows: every change of a domain's status or pages is one of them. */
export const domainEventPattern = { source: [EVENT_SOURCE], detail: { type: [{ prefix: 'domain.' }] } };

export class Edge extends Construct {
  readonly store: KeyValueStore;
  readonly function: CloudFrontFunction;
  readonly distribution: CfnDistribution;
  readonly sync: ApiFunction;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const { config, table, bus, alarms, settings } = props;
    const name = `${serviceName}-${config.stage}`;

    this.store = new KeyValueStore(this, 'store', {
      keyValueStoreName: `${name}-edge`,
      comment: 'One entry per served host: its redirect record (lib/edge/record.ts)',
    });
    this.function = new CloudFrontFunction(this, 'viewer-request', {
      functionName: `${name}-edge-viewer-request`,
      comment: 'Redirects of verified domains (functions/edge/viewer-request.js)',
      code: FunctionCode.fromInline(edgeFunctionSource(settings)),
      runtime: FunctionRuntime.JS_2_0,
      keyValueStore: this.store,
    });

    // Multi-tenant (SaaS Manager): tenants hold the domains and certificates; the distribution holds the rules.
    this.distribution = new CfnDistribution(this, 'distribution', {
      distributionConfig: {
        enabled: true,
        comment: `${name}: verified domains' redirects`,
        connectionMode: 'tenant-only',
        origins: [
          {
            id: 'unused',
            domainName: props.originDomainName,
            customOriginConfig: { originProtocolPolicy: 'https-only', originSslProtocols: ['TLSv1.2'] },
          },
        ],
        defaultCacheBehavior: {
          targetOriginId: 'unused',
          viewerProtocolPolicy: 'redirect-to-https',
          allowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
          // CachingDisabled: every request reaches the function, which answers it at the edge.
          cachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
          functionAssociations: [{ eventType: 'viewer-request', functionArn: this.function.functionArn }],
        },
      },
    });

    this.deadLetters = new Queue(this, 'dead-letters', {
      queueName: `${name}-edge-sync-dead-letters`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const isDeadLetterQueue = 'It is the dead-letter queue of the edge sync rule itself.';
    Validations.of(this.deadLetters).acknowledge(
      { id: 'AwsSolutions-SQS3', reason: isDeadLetterQueue },
      { id: 'Serverless-SQSRedrivePolicy', reason: isDeadLetterQueue },
    );

    this.sync = new ApiFunction(this, 'sync', {
      handler: 'edge/sync',
      functionName: `${name}-edge-sync`,
      description: 'Keeps the edge store and tenants in line with the active domains',
      config,
    }).useTable(table, ['GetItem'], { index: false });
    this.sync.addEnvironment('EDGE_KVS_ARN', this.store.keyValueStoreArn);
    this.sync.addEnvironment('EDGE_DISTRIBUTION_ID', this.distribution.attrId);
    this.sync.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cloudfront-keyvaluestore:DescribeKeyValueStore',
          'cloudfront-keyvaluestore:GetKey',
          'cloudfront-keyvaluestore:PutKey',
          'cloudfront-keyvaluestore:DeleteKey',
        ],
        resources: [this.store.keyValueStoreArn],
      }),
    );
    const account = Stack.of(this).account;
    this.sync.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cloudfront:GetDistributionTenantByDomain',
          'cloudfront:CreateDistributionTenant',
          'cloudfront:UpdateDistributionTenant',
        ],
        resources: [
          `arn:${Stack.of(this).partition}:cloudfront::${account}:distribution/${this.distribution.attrId}`,
          `arn:${Stack.of(this).partition}:cloudfront::${account}:distribution-tenant/*`,
        ],
      }),
    );
    Validations.of(this.sync).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution-tenant/*]',
      reason: 'Tenants are created at run time, one per active domain: their ids are not known when deploying.',
    });

    new Rule(this, 'domain-events', {
      ruleName: `${name}-edge-sync`,
      description: 'Every domain event of the bus, to the edge sync',
      eventBus: bus,
      eventPattern: domainEventPattern,
      targets: [
        new LambdaFunction(this.sync, {
          deadLetterQueue: this.deadLetters,
          retryAttempts: 8,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });

    deadLetterAlarm(this, 'dead-letters-alarm', {
      alarmName: `${name}-edge-sync-dead-letters`,
      description: 'Domain events the edge sync could not apply after its retries: see docs/deployment.md.',
      queue: this.deadLetters,
      config,
      alarms,
    });
  }
}
