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
  type IWidget,
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

/** A function to watch: its metrics, and its log group (for the refusals filter). */
type WatchedFunction = IFunction & { readonly logGroup: ILogGroup };

export type MonitoringProps = {
  config: StageConfig;
  stage: Stage;
  table: Table;
  /** Every function, by a short name used in alarm names. */
  functions: ReadonlyMap<string, WatchedFunction>;
  firewall: ApiFirewall;
  /**
   * A function that fails some invocations by design, and the message it logs for each (the authorizer throws
   * to answer 401): its errors alarm counts only the other failures.
   */
  refusals?: { function: string; message: string };
};

/** What the handlers send to DynamoDB (`lib/data`): item reads and updates, queries, write transactions. */
/** Per-minute sums, as the dashboard's count graphs show them. */
const perMinuteSum = { statistic: 'Sum', period: Duration.minutes(1) };

const tableOperations = [Operation.GET_ITEM, Operation.QUERY, Operation.UPDATE_ITEM, Operation.TRANSACT_WRITE_ITEMS];

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  private readonly config: StageConfig;
  /** Every alarm notifies the topic when it fires and when it clears. */
  private readonly action: SnsAction;
  private readonly refusals: MonitoringProps['refusals'];
  /** The dashboard's per-function graphs, which every watched function adds its line to. */
  private readonly functionGraphs: Record<'errors' | 'duration' | 'throttles', GraphWidget>;

  constructor(scope: Construct, id: string, { config, stage, table, functions, firewall, refusals }: MonitoringProps) {
    super(scope, id);
    this.config = config;
    this.refusals = refusals;
    const prefix = `${serviceName}-${config.stage}`;
    const { period } = config.alarms;
    this.topic = new Topic(this, 'alarms', { topicName: `${prefix}-alarms`, enforceSSL: true });
    this.action = new SnsAction(this.topic);

    const serverErrorRate = new MathExpression({
      expression: '100 * errors',
      usingMetrics: { errors: stage.metricServerError({ statistic: 'Average', period }) },
      label: '5XX rate (%)',
      period,
    });
    const p99 = stage.metricLatency({ statistic: 'p99', period });
    this.alarm('api-5xx-rate', serverErrorRate, config.alarms.api5xxRatePercent, 'Share of API requests answered 5XX');
    this.alarm('api-p99-latency', p99, config.alarms.apiP99LatencyMs, 'API p99 latency (ms), authorizer included');
    const blocked = firewall.metricBlockedRequests('ALL', { period });
    this.alarm(
      'waf-blocked-requests',
      blocked,
      config.alarms.wafBlockedRequests,
      'Requests the WAF blocked (all rules)',
    );

    this.functionGraphs = {
      errors: new GraphWidget({ title: 'Function errors', width: 8 }),
      duration: new GraphWidget({ title: 'Function duration p99 (ms)', width: 8 }),
      throttles: new GraphWidget({ title: 'Function throttles', width: 8 }),
    };
    for (const [name, fn] of functions) this.watchFunction(name, fn);

    const operations = { operations: tableOperations, period };
    const tableThrottles = table.metricThrottledRequestsForOperations(operations);
    const tableErrors = table.metricSystemErrorsForOperations(operations);
    this.alarm('table-throttled-requests', tableThrottles, 0, 'DynamoDB requests throttled');
    this.alarm('table-system-errors', tableErrors, 0, 'DynamoDB requests failed with a 5XX');

    this.dashboard = new Dashboard(this, 'dashboard', {
      dashboardName: prefix,
      widgets: [
        // Given the list itself, which it reads at synthesis: alarms of functions watched later are shown too.
        [new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 })],
        [
          new GraphWidget({
            title: 'Requests and errors',
            left: [
              stage.metricCount(perMinuteSum),
              stage.metricClientError(perMinuteSum),
              stage.metricServerError(perMinuteSum),
            ],
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
        [this.functionGraphs.errors, this.functionGraphs.duration, this.functionGraphs.throttles],
        [
          new GraphWidget({ title: 'DynamoDB throttled requests', left: [tableThrottles], width: 8 }),
          new GraphWidget({ title: 'DynamoDB system errors', left: [tableErrors], width: 8 }),
          new GraphWidget({
            title: 'DynamoDB consumed capacity',
            left: [
              table.metricConsumedReadCapacityUnits(perMinuteSum),
              table.metricConsumedWriteCapacityUnits(perMinuteSum),
            ],
            width: 8,
          }),
        ],
      ],
    });
  }

  /**
   * Alarms on a function's failed invocations and throttles, and its lines on the dashboard: every function of
   * the stack, including those made after the monitoring (they need its alarm topic).
   */
  watchFunction(name: string, fn: WatchedFunction): void {
    const { period, functionErrors } = this.config.alarms;
    const errors = fn.metricErrors({ period, statistic: 'Sum' });
    if (this.refusals?.function === name) {
      // Lambda counts a refusal (a thrown `Unauthorized`) as an error; one log line per refusal tells them apart.
      const refused = new MetricFilter(this, `${name}-refusals`, {
        logGroup: fn.logGroup,
        metricNamespace: `${serviceName}/${this.config.stage}`,
        metricName: `${name}-refusals`,
        filterPattern: FilterPattern.stringValue('$.message.message', '=', this.refusals.message),
        metricValue: '1',
      }).metric({ statistic: 'Sum', period });
      const failures = new MathExpression({
        expression: 'errors - FILL(refused, 0)',
        usingMetrics: { errors, refused },
        label: `${name} failures (refusals excluded)`,
        period,
      });
      this.alarm(`${name}-errors`, failures, functionErrors, `${name}: failed invocations, refusals excluded`);
    } else {
      this.alarm(`${name}-errors`, errors, functionErrors, `${name}: invocations that failed`);
    }
    const throttles = fn.metricThrottles({ period, statistic: 'Sum' });
    this.alarm(`${name}-throttles`, throttles, 0, `${name}: invocations refused for lack of concurrency`);

    this.functionGraphs.errors.addLeftMetric(fn.metricErrors(perMinuteSum));
    this.functionGraphs.duration.addLeftMetric(fn.metricDuration({ statistic: 'p99' }));
    this.functionGraphs.throttles.addLeftMetric(fn.metricThrottles(perMinuteSum));
  }

  /** A row of the dashboard's, below the others, for what is made after the monitoring (the webhook queues). */
  addRow(...widgets: IWidget[]): void {
    this.dashboard.addWidgets(...widgets);
  }

  private alarm(name: string, metric: IMetric, threshold: number, description: string): Alarm {
    const created = new Alarm(this, name, {
      metric,
      alarmName: `${serviceName}-${this.config.stage}-${name}`,
      alarmDescription: description,
      threshold,
      evaluationPeriods: this.config.alarms.evaluationPeriods,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    created.addAlarmAction(this.action);
    created.addOkAction(this.action);
    this.alarms.push(created);
    return created;
  }
}
