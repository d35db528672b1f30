/**
 * Alarms before the edge's quotas bite (docs/deployment.md, "Quotas to raise"): at 80 % of each, on the usage the
 * sweep publishes every 5 minutes (`lib/edge/quotas.ts`, embedded metric format, namespace
 * `DomainsSpaces/Edge`, dimension `Stage`):
 * - the stage's tenants against the account's distribution tenants (10,000 by default);
 * - the account's ACM certificates (2,500 by default, failed and expired ones included);
 * - the fullest shard's store bytes against a store's 5 MB;
 * - the fullest shard's hosts against what a shard is given (`hostsPerShard`).
 * The shards' two are one alarm each (the maximum over the shards' metrics), whatever the number of shards.
 * A missing value is not a breach: a sweep that stops running alarms through its errors and dead letters.
 */
import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { EDGE_METRICS, EDGE_QUOTAS } from '#lib/edge/quotas.ts';
import { type StageConfig, serviceName } from '../stages.ts';

/** Where an alarm goes off: this share of its quota. */
export const QUOTA_ALARM_RATIO = 0.8;

export type EdgeQuotaLimits = {
  tenantsPerAccount: number;
  certificatesPerAccount: number;
  storeBytes: number;
  hostsPerShard: number;
};

export type EdgeQuotasProps = {
  config: StageConfig;
  alarms: ITopic;
  /** How many shards the stage has (their metrics have dimension `Shard` 0 … shards − 1). */
  shards: number;
  /** The quotas as the account has them (defaults: `EDGE_QUOTAS`), and the hosts a shard is given. */
  limits: Partial<EdgeQuotaLimits> & Pick<EdgeQuotaLimits, 'hostsPerShard'>;
};

export class EdgeQuotas extends Construct {
  readonly alarms: Alarm[];

  constructor(scope: Construct, id: string, props: EdgeQuotasProps) {
    super(scope, id);
    const name = `${serviceName}-${props.config.stage}`;
    const limits: EdgeQuotaLimits = { ...EDGE_QUOTAS, ...props.limits };
    const period = Duration.minutes(5);
    const metric = (metricName: string, dimensions: Record<string, string> = {}) =>
      new Metric({
        namespace: EDGE_METRICS.namespace,
        metricName,
        dimensionsMap: { Stage: name, ...dimensions },
        statistic: 'Maximum',
        period,
      });
    /** The largest of a per-shard metric over every shard. */
    const fullest = (metricName: string, label: string) => {
      const usingMetrics = Object.fromEntries(
        Array.from({ length: props.shards }, (_, shard) => [`s${shard}`, metric(metricName, { Shard: String(shard) })]),
      );
      return new MathExpression({
        expression: `MAX([${Object.keys(usingMetrics).join(', ')}])`,
        usingMetrics,
        label,
        period,
      });
    };
    const alarm = (alarmId: string, what: string, quota: number, watched: Metric | MathExpression) => {
      const threshold = Math.floor(quota * QUOTA_ALARM_RATIO);
      const made = new Alarm(this, alarmId, {
        alarmName: `${name}-edge-${alarmId}`,
        alarmDescription: `${what} reached ${QUOTA_ALARM_RATIO * 100} % of ${quota.toLocaleString('en-US')}: raise the quota or add shards before it is full (docs/deployment.md, Quotas to raise).`,
        metric: watched,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      made.addAlarmAction(new SnsAction(props.alarms));
      return made;
    };
    this.alarms = [
      alarm('tenants', "The stage's distribution tenants", limits.tenantsPerAccount, metric(EDGE_METRICS.tenants)),
      alarm(
        'certificates',
        "The account's ACM certificates",
        limits.certificatesPerAccount,
        metric(EDGE_METRICS.certificates),
      ),
      alarm(
        'store-bytes',
        "The fullest shard's key value store",
        limits.storeBytes,
        fullest(EDGE_METRICS.storeBytes, 'Store bytes, fullest shard'),
      ),
      alarm(
        'shard-hosts',
        "The fullest shard's hosts",
        limits.hostsPerShard,
        fullest(EDGE_METRICS.shardHosts, 'Hosts, fullest shard'),
      ),
    ];
  }
}
