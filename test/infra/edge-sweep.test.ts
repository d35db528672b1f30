/**
 * The edge sweep and the quota alarms as the prod stack synthesizes them (infra/constructs/edge-sweep.ts,
 * edge-quotas.ts): the sweep is a function of its own whose timeout covers its budget and its last host's worst
 * retry path (derived from its clients' settings), whose role holds what its code calls and nothing else (its
 * cursor item only, by `dynamodb:LeadingKeys`); alarms at 80 % of each quota, the per-shard ones over every shard;
 * the stage's `edge.shards` shards, each store read by exactly one function, each run by exactly one distribution,
 * behind one connection group; and the stack stays well inside CloudFormation's 500 resources per stack (at most 400).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { edgeSweepFunction, sweepTimeout } from '#infra/constructs/edge-sweep.ts';
import { edgeSweepCursorKey } from '#lib/edge/data/sweep-cursor.ts';
import { EDGE_METRICS, EDGE_QUOTAS } from '#lib/edge/quotas.ts';
import { SWEEP_BUDGET_MS, SWEEP_CALLS_PER_HOST, sweepClientSettings, worstCallMs } from '#lib/edge/sweep-settings.ts';
import { edgeSweepActions } from './edge-sweep-actions.ts';
import { type Synthesized, synthesize } from './synth.ts';

let s: Synthesized;
beforeAll(() => {
  s = synthesize('prod');
}, 300_000);

/** CloudFormation's quota: "Resources: Maximum number of resources that you can declare in your template: 500". */
const STACK_RESOURCES_MAX = 500;
/** What this stack allows itself, so shards and new routes have room before the stack must be split. */
const STACK_RESOURCES_BUDGET = 400;

describe('the edge sweep', () => {
  it('is a function of its own, named after the stack, with a timeout that covers its budget and its worst host', () => {
    // Prepare: one call's worst with the clients' settings, written out: 4 attempts of (1 s + 3 s), backoffs ≤ 1.4 s
    const fn = s.functions.get(edgeSweepFunction.name);
    // Assess
    expect(sweepClientSettings).toMatchObject({ maxAttempts: 4, retryMode: 'standard' });
    expect(worstCallMs()).toBe(4 * (1_000 + 3_000) + 200 + 400 + 800);
    expect(fn?.FunctionName).toBe(`domains-spaces-prod-${edgeSweepFunction.name}`);
    expect(Number(fn?.Timeout)).toBe(sweepTimeout().toSeconds());
    expect(Number(fn?.Timeout) * 1000).toBeGreaterThanOrEqual(SWEEP_BUDGET_MS + SWEEP_CALLS_PER_HOST * worstCallMs());
  });

  it('may do what its code calls and nothing else: its cursor item, the stores, the tenants, the certificates', () => {
    // Prepare
    const role = s.functions.get(edgeSweepFunction.name)?.Role as { 'Fn::GetAtt': [string, string] };
    const roleId = role['Fn::GetAtt'][0];
    const statements = s
      .ofType('AWS::IAM::Policy')
      .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(`"${roleId}"`))
      .flatMap(
        ([, policy]) => (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement,
      );
    const actions = statements.flatMap((statement) => [statement.Action].flat() as string[]);
    const table = statements.find((statement) => JSON.stringify(statement.Action).includes('dynamodb:'));
    // Assess
    const own = actions.filter((action) => !/^(logs|xray|sqs):/.test(action)).sort();
    expect(own).toEqual(edgeSweepActions.map((row) => row.action).sort());
    expect(actions).not.toContain('cloudfront:CreateDistributionTenant');
    expect(actions).not.toContain('cloudfront-keyvaluestore:PutKey');
    expect(table?.Condition).toEqual({
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [edgeSweepCursorKey.pk] },
    });
  });
});

describe('the quota alarms', () => {
  const alarms = () =>
    Object.fromEntries(
      s
        .ofType('AWS::CloudWatch::Alarm')
        .map(([, alarm]) => [String(alarm.Properties.AlarmName), alarm.Properties] as const)
        .filter(([name]) => name.startsWith('domains-spaces-prod-edge-') && !/edge-(sync|sweep)/.test(name)),
    );

  it('go off at 80 % of the tenants, certificates, store bytes and hosts per shard, on the metrics the sweep publishes', () => {
    // Prepare
    const found = alarms();
    // Assess
    expect(Object.keys(found).sort()).toEqual(
      ['certificates', 'shard-hosts', 'store-bytes', 'tenants'].map((name) => `domains-spaces-prod-edge-${name}`),
    );
    expect(found['domains-spaces-prod-edge-tenants']).toMatchObject({
      Namespace: EDGE_METRICS.namespace,
      MetricName: EDGE_METRICS.tenants,
      Dimensions: [{ Name: 'Stage', Value: 'domains-spaces-prod' }],
      Threshold: 0.8 * EDGE_QUOTAS.tenantsPerAccount,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(found['domains-spaces-prod-edge-certificates']).toMatchObject({
      MetricName: EDGE_METRICS.certificates,
      Threshold: 0.8 * EDGE_QUOTAS.certificatesPerAccount,
    });
    const bytes = found['domains-spaces-prod-edge-store-bytes'] as { Threshold: number; Metrics: unknown[] };
    expect(bytes.Threshold).toBe(Math.floor(0.8 * EDGE_QUOTAS.storeBytes));
    // The fullest shard: the maximum over every shard's metric, one alarm whatever the number of shards.
    expect(JSON.stringify(bytes.Metrics)).toContain('MAX([');
    expect(JSON.stringify(bytes.Metrics)).toContain(`"MetricName":"${EDGE_METRICS.storeBytes}"`);
    expect(JSON.stringify(bytes.Metrics)).toContain('"Name":"Shard","Value":"0"');
    const hosts = found['domains-spaces-prod-edge-shard-hosts'] as { Threshold: number; Metrics: unknown[] };
    expect(hosts.Threshold).toBe(0.8 * s.config.edge.hostsPerShard);
    // Every shard's metric, and no other, under the maximum.
    const shardsOf = (alarm: { Metrics: unknown[] }, metric: string) =>
      (
        alarm.Metrics as {
          MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: string }[] } };
        }[]
      )
        .flatMap(({ MetricStat }) => (MetricStat?.Metric.MetricName === metric ? [MetricStat.Metric.Dimensions] : []))
        .map((dimensions) => dimensions.find(({ Name }) => Name === 'Shard')?.Value);
    const everyShard = Array.from({ length: s.config.edge.shards }, (_, shard) => String(shard));
    expect(shardsOf(bytes, EDGE_METRICS.storeBytes)).toEqual(everyShard);
    expect(shardsOf(hosts, EDGE_METRICS.shardHosts)).toEqual(everyShard);
    const [topicId] = s.only('AWS::SNS::Topic');
    for (const alarm of Object.values(found)) expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
  });
});

describe('the shards', () => {
  const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

  it('are edge.shards of them behind one connection group, each store read by one function run by one distribution', () => {
    // Prepare: which store each function reads, and which function each distribution runs
    type Fn = { FunctionConfig: { KeyValueStoreAssociations?: { KeyValueStoreARN: unknown }[] } };
    const storeIds = s.ofType('AWS::CloudFront::KeyValueStore').map(([id]) => id);
    const readers = s.ofType('AWS::CloudFront::Function').map(([id, fn]) => ({
      id,
      stores: ((fn.Properties as Fn).FunctionConfig.KeyValueStoreAssociations ?? []).map((association) =>
        JSON.stringify(association.KeyValueStoreARN),
      ),
    }));
    const runners = s
      .ofType('AWS::CloudFront::Distribution')
      .map(([, distribution]) =>
        readers.filter(({ id }) => JSON.stringify(distribution.Properties).includes(`"${id}"`)).map(({ id }) => id),
      );
    // Assess: prod's setting is more than one shard, so the pairing is not trivially one of one
    expect(s.config.edge.shards).toBeGreaterThan(1);
    expect(storeIds).toHaveLength(s.config.edge.shards);
    expect(runners).toHaveLength(s.config.edge.shards);
    expect(s.ofType('AWS::CloudFront::ConnectionGroup')).toHaveLength(1);
    for (const reader of readers) expect(reader.stores, reader.id).toHaveLength(1);
    expect(readers.flatMap((reader) => reader.stores).sort()).toEqual(
      storeIds.map((id) => JSON.stringify(getAtt(id))).sort(),
    );
    for (const runs of runners) expect(runs).toHaveLength(1);
    expect(runners.flat().sort()).toEqual(readers.map(({ id }) => id).sort());
  });
});

describe('the stack', () => {
  it(`keeps within ${STACK_RESOURCES_BUDGET} of CloudFormation's ${STACK_RESOURCES_MAX} resources`, () => {
    // Prepare
    const count = Object.keys(s.template.toJSON().Resources as object).length;
    // Assess
    expect(count).toBeLessThanOrEqual(STACK_RESOURCES_BUDGET);
  });
});
