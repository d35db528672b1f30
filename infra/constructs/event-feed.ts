import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_PREFIX } from '#lib/data/keys.ts';
import { EVENT_DETAIL_TYPE, EVENT_SOURCE } from '#lib/feed/bus.ts';
import { type StageConfig, serviceName } from '../stages.ts';
import { deadLetterQueue } from './dead-letters.ts';

export type EventFeedProps = {
  config: StageConfig;
  /** The table, with a stream of new images. */
  table: ITable;
  /** The pipe's enrichment: stream records to bus events. */
  publisher: IFunction;
  /** Where the dead-letter alarm goes. */
  alarms: ITopic;
};

/** Only new event items: the stream also carries every other write, and TTL's deletes of old events. */
export const eventFilter = {
  eventName: ['INSERT'],
  dynamodb: { Keys: { sk: { S: [{ prefix: EVENT_PREFIX }] } } },
};

export class EventFeed extends Construct {
  readonly bus: EventBus;
  readonly deadLetters: Queue;
  readonly pipe: CfnPipe;

  constructor(scope: Construct, id: string, { config, table, publisher, alarms }: EventFeedProps) {
    super(scope, id);
    const name = `${serviceName}-${config.stage}`;
    const stream = table.tableStreamArn;
    if (!stream) throw new Error('The change feed needs the table stream');

    this.bus = new EventBus(this, 'bus', {
      eventBusName: `${name}-events`,
      description: 'Every change of spaces and domains (the change feed), one event each',
    });
    this.deadLetters = deadLetterQueue(this, {
      name: `${name}-events-dead-letters`,
      whose: "the pipe's",
      alarmDescription: 'Events the pipe could not put on the bus after its retries: see docs/events.md.',
      config,
      alarms,
    });

    // Exactly what the pipe does: read the stream, call the publisher, put events on the bus, dead-letter.
    const role = new Role(this, 'pipe-role', {
      assumedBy: new ServicePrincipal('pipes.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.bus.env.account } },
      }),
      description: `Runs the ${name} change feed pipe`,
      inlinePolicies: {
        pipe: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: [
                'dynamodb:DescribeStream',
                'dynamodb:GetRecords',
                'dynamodb:GetShardIterator',
                'dynamodb:ListStreams',
              ],
              resources: [stream],
            }),
            new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [publisher.functionArn] }),
            new PolicyStatement({ actions: ['events:PutEvents'], resources: [this.bus.eventBusArn] }),
            new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.deadLetters.queueArn] }),
          ],
        }),
      },
    });

    this.pipe = new CfnPipe(this, 'pipe', {
      name: `${name}-events`,
      description: 'New event items of the table stream, as feed events, onto the event bus',
      roleArn: role.roleArn,
      source: stream,
      sourceParameters: {
        dynamoDbStreamParameters: {
          startingPosition: 'LATEST',
          batchSize: 10,
          maximumBatchingWindowInSeconds: 1,
          maximumRetryAttempts: 10,
          onPartialBatchItemFailure: 'AUTOMATIC_BISECT',
          deadLetterConfig: { arn: this.deadLetters.queueArn },
        },
        filterCriteria: { filters: [{ pattern: JSON.stringify(eventFilter) }] },
      },
      enrichment: publisher.functionArn,
      target: this.bus.eventBusArn,
      targetParameters: {
        eventBridgeEventBusParameters: { source: EVENT_SOURCE, detailType: EVENT_DETAIL_TYPE },
      },
    });
  }
}
