/**
 * The edge construct (infra/constructs/edge.ts), in a stack of its own: the multi-tenant distribution answers
 * every viewer request with the CloudFront Function (runtime 2.0, its KeyValueStore associated, the source the
 * local edge runs); the sync function is sent every domain event of the bus, retried into a dead-letter queue
 * with an alarm (undelivered events and failed syncs alike), and may do only what the sync needs.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { Edge } from '#infra/constructs/edge.ts';
import { edgeFunctionSource } from '#infra/edge-function.ts';
import { stages } from '#infra/stages.ts';
import { edgeSyncActions } from './cloudfront-actions.ts';

const settings = { defaultIndexPage: 'https://www.example.com/', defaultNotFoundPage: '', cacheSeconds: 60 };
let template: Template;

beforeAll(() => {
  // No bundling: the template's shape is what is asserted (the bundles have their own tests).
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'edge-test', { env: { account: '123456789012', region: 'us-east-1' } });
  const table = new Table(stack, 'table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    sortKey: { name: 'sk', type: AttributeType.STRING },
  });
  new Edge(stack, 'edge', {
    config: stages.dev,
    table,
    bus: new EventBus(stack, 'bus'),
    alarms: new Topic(stack, 'alarms'),
    settings,
    originDomainName: 'api.example.com',
  });
  template = Template.fromStack(stack);
});

describe('the edge on AWS', () => {
  it('runs the function file with the stage settings, on runtime 2.0, with its KeyValueStore', () => {
    // Assess
    template.resourceCountIs('AWS::CloudFront::KeyValueStore', 1);
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: edgeFunctionSource(settings),
      FunctionConfig: Match.objectLike({
        Runtime: 'cloudfront-js-2.0',
        KeyValueStoreAssociations: [{ KeyValueStoreARN: Match.anyValue() }],
      }),
    });
  });

  it('is one multi-tenant distribution whose every viewer request goes to the function', () => {
    // Assess
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        ConnectionMode: 'tenant-only',
        DefaultCacheBehavior: Match.objectLike({
          FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: Match.anyValue() }],
          ViewerProtocolPolicy: 'redirect-to-https',
        }),
      }),
    });
  });

  it('sends every domain event of the bus to the sync, retried, then to a dead-letter queue with an alarm', () => {
    // Assess
    template.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: { source: ['domains-spaces'], detail: { type: [{ prefix: 'domain.' }] } },
      Targets: [
        Match.objectLike({
          DeadLetterConfig: { Arn: Match.anyValue() },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
        }),
      ],
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'domains-spaces-dev-edge-sync-dead-letters',
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });

  it('dead-letters a domain event the sync failed on too, after Lambda’s own retries, into the same queue', () => {
    // Prepare
    const [queueId] = Object.keys(template.findResources('AWS::SQS::Queue'));
    // Assess: the rule's DLQ holds only events it could not deliver; Lambda's holds the failed syncs
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'domains-spaces-dev-edge-sync',
      DeadLetterConfig: { TargetArn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
    });
    template.resourceCountIs('AWS::SQS::Queue', 1);
  });

  it('lets the sync read the table, record serving, write the store, manage tenants and dead-letter an event, and nothing else', () => {
    // Assess: its environment, and its role's statements (besides logs and traces).
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'domains-spaces-dev-edge-sync',
      Environment: {
        Variables: Match.objectLike({
          TABLE_NAME: Match.anyValue(),
          EDGE_KVS_ARN: Match.anyValue(),
          EDGE_DISTRIBUTION_ID: Match.anyValue(),
          EDGE_CONNECTION_GROUP_ID: Match.anyValue(),
        }),
      },
    });
    const functions = template.findResources('AWS::Lambda::Function', {
      Properties: { FunctionName: 'domains-spaces-dev-edge-sync' },
    });
    const [sync] = Object.values(functions) as { Properties: { Role: { 'Fn::GetAtt': [string, string] } } }[];
    const role = sync?.Properties.Role['Fn::GetAtt'][0];
    const policies = template.findResources('AWS::IAM::Policy');
    const actions = Object.values(policies)
      .filter(
        (policy) =>
          JSON.stringify((policy as { Properties: { Roles: unknown } }).Properties.Roles) ===
          JSON.stringify([{ Ref: role }]),
      )
      .flatMap(
        (policy) =>
          (policy as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }).Properties
            .PolicyDocument.Statement,
      )
      .flatMap((statement) => [statement.Action].flat())
      .filter((action) => !action.startsWith('logs:') && !action.startsWith('xray:'))
      .sort();
    // The CloudFront ones as AWS documents them (cloudfront-iam.test.ts checks their resources).
    expect(actions).toEqual(
      [
        ...edgeSyncActions.map((row) => row.action),
        'dynamodb:DeleteItem',
        'dynamodb:GetItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'sqs:SendMessage',
      ].sort(),
    );
  });
});

/** The edge of a stage with `shards` shards, synthesized alone: its template and its construct. */
function shardedEdge(shards: number) {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'edge-test', { env: { account: '123456789012', region: 'us-east-1' } });
  const table = new Table(stack, 'table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    sortKey: { name: 'sk', type: AttributeType.STRING },
  });
  const edge = new Edge(stack, 'edge', {
    config: { ...stages.prod, edge: { ...stages.prod.edge, shards } },
    table,
    bus: new EventBus(stack, 'bus'),
    alarms: new Topic(stack, 'alarms'),
    settings,
    originDomainName: 'api.example.com',
  });
  // An L2's resource is its default child; an L1 (the distribution, the connection group) is its own.
  const id = (construct: { node: { defaultChild?: unknown } }) =>
    stack.getLogicalId((construct.node.defaultChild ?? construct) as never);
  return { template: Template.fromStack(stack), edge, id };
}

describe('the edge in shards', () => {
  it('is N shards (distribution, function, store) behind one connection group, each store with exactly one function', () => {
    // Prepare
    const { template, edge, id } = shardedEdge(3);
    // Assess
    template.resourceCountIs('AWS::CloudFront::Distribution', 3);
    template.resourceCountIs('AWS::CloudFront::Function', 3);
    template.resourceCountIs('AWS::CloudFront::KeyValueStore', 3);
    template.resourceCountIs('AWS::CloudFront::ConnectionGroup', 1);
    const functions = Object.values(template.findResources('AWS::CloudFront::Function')) as {
      Properties: { FunctionConfig: { KeyValueStoreAssociations: { KeyValueStoreARN: unknown }[] } };
    }[];
    const associated = functions.map((fn) => JSON.stringify(fn.Properties.FunctionConfig.KeyValueStoreAssociations));
    expect(new Set(associated).size).toBe(3);
    for (const [shard, { store, distribution }] of edge.shards.entries()) {
      // The shard's function reads its own store, and its distribution runs its function.
      template.hasResourceProperties('AWS::CloudFront::Function', {
        Name: `domains-spaces-prod-edge-viewer-request${shard === 0 ? '' : `-${shard}`}`,
        FunctionConfig: Match.objectLike({
          KeyValueStoreAssociations: [{ KeyValueStoreARN: { 'Fn::GetAtt': [id(store), 'Arn'] } }],
        }),
      });
      const [fnId] = Object.keys(
        template.findResources('AWS::CloudFront::Function', {
          Properties: { Name: `domains-spaces-prod-edge-viewer-request${shard === 0 ? '' : `-${shard}`}` },
        }),
      );
      expect(JSON.stringify(template.toJSON().Resources[id(distribution)])).toContain(`"${fnId}"`);
    }
  });

  it('keeps shard 0 as the edge was before shards: the same logical ids, so a deploy that adds shards replaces nothing', () => {
    // Prepare: the ids the one-store edge had (its construct ids `store`, `viewer-request`, `distribution`)
    const one = shardedEdge(1);
    const three = shardedEdge(3);
    const ids = (edge: ReturnType<typeof shardedEdge>) => {
      const [first] = edge.edge.shards;
      return first && [edge.id(first.store), edge.id(first.distribution), edge.id(edge.edge.connectionGroup)];
    };
    // Assess
    expect(ids(three)).toEqual(ids(one));
    expect(ids(one)?.map((id) => id.replace(/[0-9A-F]{8}$/, ''))).toEqual([
      'edgestore',
      'edgedistribution',
      'edgeconnectiongroup',
    ]);
    one.template.hasResourceProperties('AWS::CloudFront::KeyValueStore', { Name: 'domains-spaces-prod-edge' });
    three.template.hasResourceProperties('AWS::CloudFront::KeyValueStore', { Name: 'domains-spaces-prod-edge-2' });
  });

  it("gives the sync every shard's store and distribution, in shard order, and its hosts per shard", () => {
    // Prepare
    const { template, edge, id } = shardedEdge(3);
    // Assess
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'domains-spaces-prod-edge-sync',
      Timeout: 600,
      Environment: {
        Variables: Match.objectLike({
          EDGE_KVS_ARN: { 'Fn::Join': [',', edge.shards.map((shard) => ({ 'Fn::GetAtt': [id(shard.store), 'Arn'] }))] },
          EDGE_DISTRIBUTION_ID: {
            'Fn::Join': [',', edge.shards.map((shard) => ({ 'Fn::GetAtt': [id(shard.distribution), 'Id'] }))],
          },
          EDGE_SHARD_CAPACITY: String(stages.prod.edge.hostsPerShard),
        }),
      },
    });
  });
});
