/**
 * Webhook deliveries on AWS (docs/deployment.md, "Webhooks"). An EventBridge rule sends every change of the
 * stack's bus to the fan-out function (`functions/webhooks/fanout.ts`), which queues one delivery job per webhook
 * of the event's owner that wants it; the delivery function (`functions/webhooks/deliver.ts`) consumes the queue
 * through an event source mapping, at most `webhooks.deliveryConcurrency` at once (`infra/stages.ts`), and attempts
 * each job: a failure is hidden in the queue until its next attempt (the retry schedule, `lib/webhooks/rules/schedule.ts`)
 * and reported failed, so SQS keeps it. Nothing of it is on the request path: an API write never waits for a
 * delivery. Two dead-letter queues, each with its alarm: the queue's (jobs the delivery function kept failing on)
 * and the fan-out's (bus events it could not turn into jobs, after the rule's and Lambda's retries).
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { GraphWidget, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { type IEventBus, Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_DETAIL_TYPE, EVENT_SOURCE } from '#lib/feed/bus.ts';
import type { TableAction } from '#lib/routes.ts';
import { DEFAULT_RETRY_DELAYS } from '#lib/webhooks/rules/schedule.ts';
import { type StageConfig, serviceName } from '../stages.ts';
import { ApiFunction } from './api-function.ts';
import { deadLetterQueue } from './dead-letters.ts';

/** The fan-out Lambda: its handler under `functions/`, and its name after the stack's. */
export const webhookFanoutFunction = { name: 'webhook-fanout', handler: 'webhooks/fanout' } as const;
/**
 * The fan-out's DynamoDB actions: the owner's webhooks (Query), the key line behind each (GetItem of its keys'
 * prefix items), and disabling a webhook whose key ended (GetItem of it and of the feed head; PutItem and
 * UpdateItem in its change's transaction). `test/integration/webhook-functions.test.ts` records them.
 */
export const webhookFanoutActions: readonly TableAction[] = ['Query', 'GetItem', 'PutItem', 'UpdateItem'];
/** The delivery Lambda: its handler under `functions/`, and its name after the stack's. */
export const webhookDeliverFunction = { name: 'webhook-deliver', handler: 'webhooks/deliver' } as const;

/** Every change of the bus: the fan-out reads the owner's webhooks and their patterns, not the rule. */
export const webhookEventPattern = { source: [EVENT_SOURCE], detailType: [EVENT_DETAIL_TYPE] };

/**
 * The delivery function's timeout. A batch's attempts run in parallel, each with its 10 s deadline
 * (`DELIVERY_TIMEOUT_MS`), between the webhook's read and the attempt's writes (its record, the webhook's run of
 * failures, perhaps its disabling) and the message's new visibility: 30 s leaves those 20 s.
 */
export const WEBHOOK_DELIVER_TIMEOUT = Duration.seconds(30);

/**
 * The queue's visibility timeout: six times the function's, as AWS recommends for a queue a Lambda event source
 * reads ("Creating and configuring an Amazon SQS event source mapping", AWS Lambda Developer Guide,
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html), so that a batch throttled while
 * an earlier one runs is retried before its messages come back. A job that failed sets its own (its next
 * attempt's delay); this one only brings back a job whose function crashed or timed out.
 */
export const WEBHOOK_QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(6 * WEBHOOK_DELIVER_TIMEOUT.toSeconds());

/** The attempts the default schedule allows one job: the first, then one after each delay (8). */
export const WEBHOOK_ATTEMPTS = DEFAULT_RETRY_DELAYS.length + 1;

/**
 * How often a job may be received before SQS moves it to the dead-letter queue. The attempt is the receive count
 * (`deliver.ts`), and the function deletes a job whose attempt was the schedule's last, delivered or not; so
 * with the stack's schedule (the default: the deliver function is given no `WEBHOOK_RETRY_DELAYS`) a job is
 * received at most `WEBHOOK_ATTEMPTS` times while the function works. Two receives more (a crash, a timeout or a
 * throttle on the last attempts) before it goes: a job in the dead-letter queue is one the function failed on
 * again and again, never an endpoint that keeps failing (that is in its deliveries, and disables it after 5 days).
 * A longer schedule on the function needs this raised with it.
 */
export const WEBHOOK_MAX_RECEIVE_COUNT = WEBHOOK_ATTEMPTS + 2;

/**
 * How long a job may wait in the queue: the default schedule's delays add up to 27 h 35 min, 30 h 20 min with
 * the jitter at its highest; 4 days also covers a delivery function stopped for a couple of days. Below the
 * dead-letter queue's 14 days: a standard queue's message keeps its first enqueue time when it is moved there
 * ("Setting-up dead-letter queue retention in Amazon SQS", Amazon SQS Developer Guide), so it has 10 days at least
 * to be looked at.
 */
export const WEBHOOK_QUEUE_RETENTION = Duration.days(4);

/** Jobs per invocation: SQS's most without a batching window, which would delay the first attempt. */
export const WEBHOOK_BATCH_SIZE = 10;

export type WebhookDeliveryProps = {
  config: StageConfig;
  table: ITable;
  /** The change feed's bus (`EventFeed`). */
  bus: IEventBus;
  /** Where the dead-letter alarms go. */
  alarms: ITopic;
};

export class WebhookDelivery extends Construct {
  /** Delivery jobs, each waiting for its next attempt. */
  readonly queue: Queue;
  /** The queue's dead-letter queue: jobs the delivery function kept failing on. */
  readonly deadLetters: Queue;
  /** The fan-out's: bus events it could not turn into jobs. */
  readonly fanoutDeadLetters: Queue;
  readonly fanout: ApiFunction;
  readonly deliver: ApiFunction;
  readonly rule: Rule;

  constructor(scope: Construct, id: string, { config, table, bus, alarms }: WebhookDeliveryProps) {
    super(scope, id);
    const name = `${serviceName}-${config.stage}`;

    this.deadLetters = deadLetterQueue(this, {
      name: `${name}-webhook-dead-letters`,
      whose: "the webhook delivery queue's",
      alarmDescription:
        'Webhook delivery jobs the delivery function failed on (crashed, timed out) too often: see docs/deployment.md, Webhooks.',
      config,
      alarms,
    });
    this.queue = new Queue(this, 'queue', {
      queueName: `${name}-webhook-deliveries`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: WEBHOOK_QUEUE_VISIBILITY_TIMEOUT,
      retentionPeriod: WEBHOOK_QUEUE_RETENTION,
      deadLetterQueue: { queue: this.deadLetters, maxReceiveCount: WEBHOOK_MAX_RECEIVE_COUNT },
      removalPolicy: config.removalPolicy,
    });

    // The helper names its queue and alarm in the scope it is given: the fan-out's in a scope of their own.
    this.fanoutDeadLetters = deadLetterQueue(new Construct(this, 'fanout-events'), {
      name: `${name}-webhook-fanout-dead-letters`,
      whose: "the webhook fan-out's (its rule's and its own)",
      alarmDescription:
        'Bus events the webhook fan-out could not turn into delivery jobs after their retries: see docs/deployment.md, Webhooks.',
      config,
      alarms,
    });

    // One Query of the owner's webhooks on the table (never the index), the key lines behind them (GetItem), a
    // webhook whose key ended disabled (a change: GetItem of it and the feed head, a transaction of Put and Update
    // items), then SendMessageBatch (sqs:SendMessage).
    this.fanout = new ApiFunction(this, 'fanout', {
      handler: webhookFanoutFunction.handler,
      functionName: `${name}-${webhookFanoutFunction.name}`,
      description: 'Webhooks: each bus event to one delivery job per webhook of its owner that wants it',
      config,
      deadLetterQueue: this.fanoutDeadLetters,
    }).useTable(table, webhookFanoutActions, { index: false });
    this.fanout.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    this.fanout.addToRolePolicy(
      new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] }),
    );

    // As the edge sync's rule: it only hands the event to Lambda; a failed fan-out is retried by Lambda (twice),
    // then its event goes to the same dead-letter queue as the rule's undelivered ones.
    this.rule = new Rule(this, 'events', {
      ruleName: `${name}-webhook-fanout`,
      description: 'Every change of the bus, to the webhook fan-out',
      eventBus: bus,
      eventPattern: webhookEventPattern,
      targets: [
        new LambdaFunction(this.fanout, {
          deadLetterQueue: this.fanoutDeadLetters,
          retryAttempts: 8,
          maxEventAge: Duration.hours(2),
        }),
      ],
    });

    // Reads the webhook (GetItem), records the attempt (PutItem) and the webhook's run of failures (UpdateItem),
    // and disables a webhook failing for 5 days (a change: a transaction of Put and Update items, and GetItem of
    // the feed head). The event source's grant (receive, delete, change visibility, the queue's attributes)
    // includes sqs:ChangeMessageVisibility, with which the function hides a failed job until its next attempt.
    this.deliver = new ApiFunction(this, 'deliver', {
      handler: webhookDeliverFunction.handler,
      functionName: `${name}-${webhookDeliverFunction.name}`,
      description: 'Webhooks: attempts the queued deliveries; a failure waits in the queue for its next attempt',
      config,
      timeout: WEBHOOK_DELIVER_TIMEOUT,
      noDeadLetterQueueReason:
        'Invoked synchronously by its SQS event source mapping: a job it fails on stays in the queue, whose own dead-letter queue (with its alarm) takes it after its receives; no event is left for a function dead-letter queue.',
    }).useTable(table, ['GetItem', 'PutItem', 'UpdateItem'], { index: false });
    this.deliver.addEnvironment('WEBHOOK_QUEUE_URL', this.queue.queueUrl);
    this.deliver.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: WEBHOOK_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: config.webhooks.deliveryConcurrency,
      }),
    );
    const mapping = this.deliver.node.children.find((child) => child instanceof EventSourceMapping);
    if (!mapping) throw new Error('The delivery function has no event source mapping');
    Validations.of(mapping).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason:
        "An SQS event source mapping has no on-failure destination (Lambda offers one for stream and Kafka sources only): a job the function fails on stays in the queue, and the queue's redrive policy moves it to its dead-letter queue, which alarms.",
    });
  }

  /** The dashboard's row: jobs waiting to be attempted, jobs hidden until their next attempt, and dead letters. */
  dashboardWidgets(): IWidget[] {
    const period = Duration.minutes(1);
    return [
      new GraphWidget({
        title: 'Webhook jobs: due (visible) and waiting for a retry (in flight)',
        left: [
          this.queue.metricApproximateNumberOfMessagesVisible({ period, label: 'due' }),
          this.queue.metricApproximateNumberOfMessagesNotVisible({ period, label: 'waiting for a retry' }),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'Webhook dead letters',
        left: [
          this.deadLetters.metricApproximateNumberOfMessagesVisible({ period, label: 'delivery jobs' }),
          this.fanoutDeadLetters.metricApproximateNumberOfMessagesVisible({ period, label: 'fan-out events' }),
        ],
        width: 12,
      }),
    ];
  }
}
