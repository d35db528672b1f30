/**
 * Alarms (to one SNS topic) and the API's dashboard: API errors and latency, requests the WAF blocked, every
 * function's errors and throttles, and the table's throttled requests and system errors.
 */
import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { type StageConfig, serviceName } from '../stages.ts';
import type { ApiFirewall } from './waf.ts';

export type MonitoringProps = {
  config: StageConfig;
  stage: Stage;
  table: Table;
  /** Every function, by a short name used in alarm names. */
  functions: ReadonlyMap<string, IFunction & { readonly logGroup: ILogGroup }>;
  firewall: ApiFirewall;
  /**
   * A function that fails some invocations by design, and the message it logs for each (the authorizer throws
   * to answer 401): its errors alarm counts only the other failures.
   */
  refusals?: { function: string; message: string };
};

/** What the handlers send to DynamoDB (`lib/data`): item reads and updates, queries, write transactions. */
const tableOperations = [Operation.GET_ITEM, Operation.QUERY, Operation.UPDATE_ITEM, Operation.TRANSACT_WRITE_ITEMS];

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, { config, stage, table, functions, firewall, refusals }: MonitoringProps) {
    super(scope, id);
    const prefix = `${serviceName}-${config.stage}`;
    const { period, evaluationPeriods } = config.alarms;
    this.topic = new Topic(this, 'alarms', { topicName: `${prefix}-alarms`, enforceSSL: true });
    const action = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const created = new Alarm(this, name, {
        metric,
        alarmName: `${prefix}-${name}`,
        alarmDescription: description,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const serverErrorRate = new MathExpression({
      expression: '100 * errors',
      usingMetrics: { errors: stage.metricServerError({ statistic: 'Average', period }) },
      label: '5XX rate (%)',
      period,
    });
    const p99 = stage.metricLatency({ statistic: 'p99', period });
    alarm('api-5xx-rate', serverErrorRate, config.alarms.api5xxRatePercent, 'Share of API requests answered 5XX');
    alarm('api-p99-latency', p99, config.alarms.apiP99LatencyMs, 'API p99 latency (ms), authorizer included');
    const blocked = firewall.metricBlockedRequests('ALL', { period });
    alarm('waf-blocked-requests', blocked, config.alarms.wafBlockedRequests, 'Requests the WAF blocked (all rules)');

    for (const [name, fn] of functions) {
      const errors = fn.metricErrors({ period, statistic: 'Sum' });
      if (refusals?.function === name) {
        // Lambda counts a refusal (a thrown `Unauthorized`) as an error; one log line per refusal tells them apart.
        const refused = new MetricFilter(this, `${name}-refusals`, {
          logGroup: fn.logGroup,
          metricNamespace: `${serviceName}/${config.stage}`,
          metricName: `${name}-refusals`,
          filterPattern: FilterPattern.stringValue('$.message.message', '=', refusals.message),
          metricValue: '1',
        }).metric({ statistic: 'Sum', period });
        const failures = new MathExpression({
          expression: 'errors - FILL(refused, 0)',
          usingMetrics: { errors, refused },
          label: `${name} failures (refusals excluded)`,
          period,
        });
        alarm(
          `${name}-errors`,
          failures,
          config.alarms.functionErrors,
          `${name}: failed invocations, refusals excluded`,
        );
      } else {
        alarm(`${name}-errors`, errors, config.alarms.functionErrors, `${name}: invocations that failed`);
      }
      const throttles = fn.metricThrottles({ period, statistic: 'Sum' });
      alarm(`${name}-throttles`, throttles, 0, `${name}: invocations refused for lack of concurrency`);
    }

    const operations = { operations: tableOperations, period };
    const tableThrottles = table.metricThrottledRequestsForOperations(operations);
    const tableErrors = table.metricSystemErrorsForOperations(operations);
    alarm('table-throttled-requests', tableThrottles, 0, 'DynamoDB requests throttled');
    alarm('table-system-errors', tableErrors, 0, 'DynamoDB requests failed with a 5XX');

    const sum = { statistic: 'Sum', period: Duration.minutes(1) };
    const perFunction = (metric: (fn: IFunction) => IMetric) => [...functions.values()].map(metric);
    new Dashboard(this, 'dashboard', {
      dashboardName: prefix,
      widgets: [
        [new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
        [
          new GraphWidget({
            title: 'Requests and errors',
            left: [stage.metricCount(sum), stage.metricClientError(sum), stage.metricServerError(sum)],
            width: 12,
          }),
          new GraphWidget({
            title: 'Latency (ms)',
            left: ['p50', 'p99'].map((statistic) => stage.metricLatency({ statistic })),
            right: [stage.metricIntegrationLatency({ statistic: 'p99' })],
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title: 'WAF blocked requests',
            left: ['per-key-rate', 'per-ip-rate', 'ALL'].map((rule) =>
              firewall.metricBlockedRequests(rule, { label: rule }),
            ),
            width: 24,
          }),
        ],
        [
          new GraphWidget({ title: 'Function errors', left: perFunction((fn) => fn.metricErrors(sum)), width: 8 }),
          new GraphWidget({
            title: 'Function duration p99 (ms)',
            left: perFunction((fn) => fn.metricDuration({ statistic: 'p99' })),
            width: 8,
          }),
          new GraphWidget({
            title: 'Function throttles',
            left: perFunction((fn) => fn.metricThrottles(sum)),
            width: 8,
          }),
        ],
        [
          new GraphWidget({ title: 'DynamoDB throttled requests', left: [tableThrottles], width: 8 }),
          new GraphWidget({ title: 'DynamoDB system errors', left: [tableErrors], width: 8 }),
          new GraphWidget({
            title: 'DynamoDB consumed capacity',
            left: [table.metricConsumedReadCapacityUnits(sum), table.metricConsumedWriteCapacityUnits(sum)],
            width: 8,
          }),
        ],
      ],
    });
  }
}
