/**
 * The edge sync's CloudFront permissions as AWS documents them (cloudfront-actions.ts): every action in its table
 * is granted on exactly the resource form the Service Authorization Reference lists for it ("*" where it lists
 * none; the stores: every shard's and no other), and nothing else CloudFront-, KeyValueStore- or ACM-related is
 * granted. That the table is exactly what the sync calls is edge-function-calls.test.ts's to show. The policy is
 * read from a synthesized stack with the edge construct.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { Edge } from '#infra/constructs/edge.ts';
import { stages } from '#infra/stages.ts';
import { edgeSyncActions, type ResourceForm } from './cloudfront-actions.ts';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

let statements: Statement[];
let storeIds: string[];

beforeAll(() => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new Stack(app, 'iam-test', { env: { account: '123456789012', region: 'us-east-1' } });
  const table = new Table(stack, 'table', {
    partitionKey: { name: 'pk', type: AttributeType.STRING },
    sortKey: { name: 'sk', type: AttributeType.STRING },
  });
  const {
    hostname: _hostname,
    anycastIpListId: _list,
    shards: _shards,
    hostsPerShard: _hosts,
    ...settings
  } = stages.prod.edge;
  const edge = new Edge(stack, 'edge', {
    config: stages.prod,
    table,
    bus: new EventBus(stack, 'bus'),
    alarms: new Topic(stack, 'alarms'),
    settings,
    originDomainName: 'api.example.com',
  });
  const template = Template.fromStack(stack).toJSON() as {
    Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
  };
  const roleId = stack.getLogicalId(edge.sync.role?.node.defaultChild as never);
  storeIds = edge.shards.map((shard) => stack.getLogicalId(shard.store.node.defaultChild as never));
  statements = Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy')
    .filter((policy) => JSON.stringify(policy.Properties.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((policy) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
});

/** What each resource form is in this template: the stores are every shard's (prod has several), in order. */
function expectedResources(form: ResourceForm): unknown[] {
  if (form === '*') return ['*'];
  if (form === 'key-value-store') return storeIds.map((id) => ({ 'Fn::GetAtt': [id, 'Arn'] }));
  if (form === 'certificate') {
    return [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':acm:us-east-1:123456789012:certificate/*']] }];
  }
  return [{ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::123456789012:distribution-tenant/*']] }];
}

const edgeRelated = (action: string) => /^(cloudfront|cloudfront-keyvaluestore|acm):/.test(action);

describe("the edge sync's CloudFront permissions", () => {
  it.each(edgeSyncActions)('grants $action on its documented resource form ($resource), and only there', (row) => {
    // Prepare
    const granting = statements.filter((statement) => [statement.Action].flat().includes(row.action));
    // Assess
    expect(granting, row.action).toHaveLength(1);
    const [statement] = granting as [Statement];
    expect(statement.Effect).toBe('Allow');
    expect(storeIds.length).toBe(stages.prod.edge.shards);
    expect([statement.Resource].flat()).toEqual(expectedResources(row.resource));
    expect(statement.Condition).toEqual(row.condition);
  });

  it('grants nothing CloudFront-, KeyValueStore- or ACM-related besides the table', () => {
    // Act
    const granted = statements.flatMap((statement) => [statement.Action].flat()).filter(edgeRelated);
    // Assess
    expect(granted.sort()).toEqual(edgeSyncActions.map((row) => row.action).sort());
  });
});
