/**
 * Domains that serve, on AWS (docs/deployment.md, "The edge"): N shards (`edge.shards`), each a CloudFront
 * multi-tenant distribution (CloudFront SaaS Manager) whose viewer-request CloudFront Function answers every
 * visitor from the shard's own CloudFront KeyValueStore (a function is associated with one store, and each store
 * here with one function), never calling its origin; one connection group for all of them, whose routing
 * endpoint is what served domains point at (a multi-tenant distribution has no routing endpoint of its own;
 * CreateDistributionTenant takes the tenant's `DistributionId` and `ConnectionGroupId` separately, and the
 * account's default connection group is shared by the tenants of every distribution: "Create custom connection
 * group", CloudFront Developer Guide); one tenant per served domain, on its shard's distribution, in that
 * group, with a CloudFront-managed certificate, created (once the domain's DNS points at the endpoint),
 * disabled and deleted by the edge sync function, which an EventBridge rule sends every domain event of the
 * bus; the rule's retries end in a dead-letter queue with an alarm. Shard 0 keeps the construct ids (so the
 * logical ids) the edge had before shards: a deploy that adds shards replaces nothing that serves.
 */
import { Duration, Fn, Stack, Token, Validations } from 'aws-cdk-lib';
import {
  CfnConnectionGroup,
  CfnDistribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionRuntime,
  KeyValueStore,
} from 'aws-cdk-lib/aws-cloudfront';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_SOURCE } from '#lib/feed/bus.ts';
import { type EdgeSettings, edgeFunctionSource } from '../edge-function.ts';
import { type StageConfig, serviceName } from '../stages.ts';
import { ApiFunction } from './api-function.ts';
import { deadLetterQueue } from './dead-letters.ts';

export type EdgeProps = {
  config: StageConfig;
  table: ITable;
  bus: IEventBus;
  alarms: ITopic;
  settings: EdgeSettings;
  /** The stage's own host name for the edge (`StageConfig['edge']`); absent: the routing endpoint. */
  hostname?: string;
  /** The stage's Anycast static IP list for its connection group (apex domains: docs/deployment.md). */
  anycastIpListId?: string;
  /** Where the distribution would send a request the function did not answer (it answers them all). */
  originDomainName: string;
};

/** The edge sync Lambda: its handler under `functions/`, and its name after the stack's (`<stack>-edge-sync`). */
export const edgeSyncFunction = { name: 'edge-sync', handler: 'edge/sync' } as const;

/** The domain events the sync follows: every change of a domain's status or pages is one of them. */
export const domainEventPattern = { source: [EVENT_SOURCE], detail: { type: [{ prefix: 'domain.' }] } };

/** One shard: its store, the function that reads it, and the distribution that runs the function. */
export type EdgeShard = { store: KeyValueStore; function: CloudFrontFunction; distribution: CfnDistribution };

/**
 * The sync's timeout: its worst retry path fits in it (test/unit/edge-timeouts.test.ts derives that from the SDK's
 * settings: about 8 minutes with every call of the longest chain at its worst; a sync takes well under a second).
 */
export const EDGE_SYNC_TIMEOUT = Duration.minutes(10);

export class Edge extends Construct {
  /** Shard 0's (the edge's before shards). */
  readonly store: KeyValueStore;
  readonly function: CloudFrontFunction;
  readonly distribution: CfnDistribution;
  /** Every shard, by shard number. */
  readonly shards: EdgeShard[];
  readonly connectionGroup: CfnConnectionGroup;
  /** What served domains point at: the connection group's routing endpoint (`d123.cloudfront.net`). */
  readonly routingEndpoint: string;
  /** What domain owners are told to point at (`EDGE_HOSTNAME`): the stage's own name, or the routing endpoint. */
  readonly hostname: string;
  readonly sync: ApiFunction;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, props: EdgeProps) {
    super(scope, id);
    const { config, table, bus, alarms, settings } = props;
    const name = `${serviceName}-${config.stage}`;

    const code = FunctionCode.fromInline(edgeFunctionSource(settings));
    this.shards = Array.from({ length: config.edge.shards }, (_, shard) => this.shard(shard, name, code, props));
    const [first] = this.shards as [EdgeShard];
    this.store = first.store;
    this.function = first.function;
    this.distribution = first.distribution;
    // "Understand how multi-tenant distributions work" (CloudFront Developer Guide): tenants are reached through
    // a connection group's routing endpoint; one of the stage's own, so its tenants and DNS target are its own.
    this.connectionGroup = new CfnConnectionGroup(this, 'connection-group', {
      name: `${name}-edge`,
      enabled: true,
      ipv6Enabled: true,
      ...(props.anycastIpListId ? { anycastIpListId: props.anycastIpListId } : {}),
    });
    this.routingEndpoint = this.connectionGroup.attrRoutingEndpoint;
    this.hostname = props.hostname ?? this.routingEndpoint;

    this.deadLetters = deadLetterQueue(this, {
      name: `${name}-edge-sync-dead-letters`,
      whose: "the edge sync's (its rule's, its own and its sweep schedule's)",
      alarmDescription:
        'Domain events the edge sync could not apply, or sweeps that failed, after their retries: see docs/deployment.md.',
      config,
      alarms,
    });

    // The rule only delivers the event (Lambda accepts it at once); a failed sync is retried by Lambda itself
    // (twice), then its event goes to the same dead-letter queue as the rule's undelivered ones.
    this.sync = new ApiFunction(this, 'sync', {
      handler: edgeSyncFunction.handler,
      functionName: `${name}-${edgeSyncFunction.name}`,
      description: 'Keeps the edge store and tenants in line with the active domains',
      config,
      deadLetterQueue: this.deadLetters,
      timeout: EDGE_SYNC_TIMEOUT,
      // Reads the active domain by name (its global guard, then the item); records whether it is served on it
      // (`recordServing`: the item and its event, the feed head); places a domain on a shard (its count and the
      // item in one transaction), queues its entry and takes the shard's lease (`lib/edge/data/edge-shards.ts`,
      // which queries by partition).
    }).useTable(table, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query'], { index: false });
    // Every shard in shard order: the stores' ARNs and the distributions' ids, comma-separated.
    this.sync.addEnvironment(
      'EDGE_KVS_ARN',
      Fn.join(
        ',',
        this.shards.map((each) => each.store.keyValueStoreArn),
      ),
    );
    this.sync.addEnvironment(
      'EDGE_DISTRIBUTION_ID',
      Fn.join(
        ',',
        this.shards.map((each) => each.distribution.attrId),
      ),
    );
    this.sync.addEnvironment('EDGE_SHARD_CAPACITY', String(config.edge.hostsPerShard));
    this.sync.addEnvironment('EDGE_CONNECTION_GROUP_ID', this.connectionGroup.attrId);
    this.sync.addEnvironment('EDGE_TENANT_PREFIX', name);
    // Before it creates a tenant, the sync asks DNS whether the domain points at this name.
    this.sync.addEnvironment('EDGE_HOSTNAME', this.hostname);
    this.sync.addToRolePolicy(
      new PolicyStatement({
        // What the shard's writer does (lib/edge/writer.ts): reads a host's entry, the store's version, and
        // writes its batches (tombstones included) with UpdateKeys. Listing and deleting keys is the sweep's.
        actions: [
          'cloudfront-keyvaluestore:DescribeKeyValueStore',
          'cloudfront-keyvaluestore:GetKey',
          'cloudfront-keyvaluestore:UpdateKeys',
        ],
        resources: this.shards.map((each) => each.store.keyValueStoreArn),
      }),
    );
    this.grantTenants();

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
  }

  /**
   * Shard `shard`: shard 0 with the ids and names the edge had before shards (its store, function and
   * distribution are kept, not replaced), shard n with `-n` after them.
   */
  private shard(shard: number, name: string, code: FunctionCode, props: EdgeProps): EdgeShard {
    const suffix = shard === 0 ? '' : `-${shard}`;
    const store = new KeyValueStore(this, `store${suffix}`, {
      keyValueStoreName: `${name}-edge${suffix}`,
      comment: 'One entry per served host: its redirects (lib/edge/rules/entry.ts)',
    });
    const viewerRequest = new CloudFrontFunction(this, `viewer-request${suffix}`, {
      functionName: `${name}-edge-viewer-request${suffix}`,
      comment: 'Redirects of verified domains (functions/edge/viewer-request.js)',
      code,
      runtime: FunctionRuntime.JS_2_0,
      keyValueStore: store,
    });

    // Multi-tenant (SaaS Manager): tenants hold the domains and certificates; the distribution holds the rules.
    const distribution = new CfnDistribution(this, `distribution${suffix}`, {
      distributionConfig: {
        enabled: true,
        comment: `${name}: verified domains' redirects${shard === 0 ? '' : ` (shard ${shard})`}`,
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
          functionAssociations: [{ eventType: 'viewer-request', functionArn: viewerRequest.functionArn }],
        },
      },
    });
    const answersOnly =
      'Every request is answered by the viewer-request function from the key-value store: a redirect to a page the domain owner chose, or a 404 page; no origin is ever called and no data is served.';
    Validations.of(distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: `${answersOnly} A served domain answers its visitors wherever they are, as the owner expects.`,
      },
      {
        id: 'AwsSolutions-CFR2',
        reason: `${answersOnly} There is nothing behind the distribution for a web ACL to protect; CloudFront's own DDoS protection (Shield Standard) applies.`,
      },
      {
        id: 'AwsSolutions-CFR3',
        reason: `${answersOnly} Request counts and error rates are in CloudFront's metrics; per-request logs (an S3 bucket with ACLs for standard logging) are left out until someone needs them.`,
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "A tenant-only distribution serves no host of its own, so it has no certificate (its viewer certificate is CloudFront's default, which this rule reads); visitors connect to tenants, each with a CloudFront-managed certificate for its domain, requested by the edge sync.",
      },
    );

    return { store, function: viewerRequest, distribution };
  }

  /** What the sync may do with the stage's tenants. */
  private grantTenants() {
    // Each action on the resource form the Service Authorization Reference lists for it ("Actions, resources, and
    // condition keys for Amazon CloudFront"; test/infra/cloudfront-iam.test.ts holds the table and checks this).
    const { partition, account } = Stack.of(this);
    const tenants = `arn:${partition}:cloudfront::${account}:distribution-tenant/*`;
    this.sync.addToRolePolicy(
      new PolicyStatement({
        actions: [
          'cloudfront:GetDistributionTenantByDomain',
          'cloudfront:UpdateDistributionTenant',
          // Whether a tenant's certificate is issued: the domain's `serving` state. (The sync only disables a
          // tenant; deleting it is the sweep's, infra/constructs/edge-sweep.ts.)
          'cloudfront:GetManagedCertificateDetails',
          // CreateDistributionTenant with Tags also authorizes TagResource (the reference's API operations table).
          'cloudfront:TagResource',
        ],
        resources: [tenants],
      }),
    );
    // The reference lists no resource type for CreateDistributionTenant: only "*" allows it.
    this.sync.addToRolePolicy(
      new PolicyStatement({ actions: ['cloudfront:CreateDistributionTenant'], resources: ['*'] }),
    );
    // The tenant's CloudFront-managed certificate is requested from ACM by CloudFront on the caller's behalf, as
    // AWS's own CloudFrontFullAccess policy allows it ("AWS managed policies for Amazon CloudFront"): only when
    // CloudFront makes the call.
    this.sync.addToRolePolicy(
      new PolicyStatement({
        actions: ['acm:RequestCertificate'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:CalledViaLast': 'cloudfront.amazonaws.com' } },
      }),
    );
    // A verify again after a failed certificate asks for a new one and deletes the failed one, which ACM keeps.
    this.sync.addToRolePolicy(
      new PolicyStatement({
        actions: ['acm:DeleteCertificate'],
        resources: [`arn:${partition}:acm:us-east-1:${account}:certificate/*`],
      }),
    );
    // cdk-nag names the resource as synthesized: a pseudo parameter as `<AWS::…>`, a known value as itself.
    const asNagNames = (value: string, parameter: string) => (Token.isUnresolved(value) ? `<${parameter}>` : value);
    const nagTenants = `arn:${asNagNames(partition, 'AWS::Partition')}:cloudfront::${asNagNames(account, 'AWS::AccountId')}:distribution-tenant/*`;
    // On the role, where the policy is (a sibling of the function, not its child).
    Validations.of(this.sync.role as IRole).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::${nagTenants}]`,
        reason: 'Tenants are created at run time, one per active domain: their ids are not known when deploying.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:${asNagNames(partition, 'AWS::Partition')}:acm:us-east-1:${asNagNames(account, 'AWS::AccountId')}:certificate/*]`,
        reason: "CloudFront requests each tenant's certificate at run time: their ids are not known when deploying.",
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'CreateDistributionTenant has no resource type in the Service Authorization Reference (only "*" allows it); acm:RequestCertificate is allowed only when CloudFront calls it (aws:CalledViaLast), as AWS managed CloudFrontFullAccess does.',
      },
    );
  }
}
