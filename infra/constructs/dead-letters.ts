/**
 * The stack's dead-letter queues (the change feed's pipe, the edge sync, the domain checks) and the alarm each
 * has: its first message pages the stage.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages.ts';

export type DeadLetterQueueProps = {
  /** The queue's name, and its alarm's. */
  name: string;
  /** Why it needs no dead-letter queue of its own (cdk-nag): whose dead-letter queue it is. */
  whose: string;
  /** The alarm's description: what landed, and where the runbook is. */
  alarmDescription: string;
  config: StageConfig;
  alarms: ITopic;
};

/**
 * A dead-letter queue (`dead-letters` in `scope`): encrypted, TLS only, kept 14 days, with its alarm
 * (`dead-letters-alarm`).
 */
export function deadLetterQueue(scope: Construct, props: DeadLetterQueueProps): Queue {
  const { name, whose, alarmDescription, config, alarms } = props;
  const queue = new Queue(scope, 'dead-letters', {
    queueName: name,
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: config.removalPolicy,
  });
  const reason = `It is ${whose} dead-letter queue: what lands here is kept 14 days and alarms; it needs none of its own.`;
  Validations.of(queue).acknowledge({ id: 'AwsSolutions-SQS3', reason }, { id: 'Serverless-SQSRedrivePolicy', reason });
  deadLetterAlarm(scope, 'dead-letters-alarm', {
    alarmName: name,
    description: alarmDescription,
    queue,
    config,
    alarms,
  });
  return queue;
}

function deadLetterAlarm(
  scope: Construct,
  id: string,
  props: { alarmName: string; description: string; queue: Queue; config: StageConfig; alarms: ITopic },
): Alarm {
  const alarm = new Alarm(scope, id, {
    alarmName: props.alarmName,
    alarmDescription: props.description,
    metric: props.queue.metricApproximateNumberOfMessagesVisible({ period: props.config.alarms.period }),
    threshold: 0,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new SnsAction(props.alarms));
  return alarm;
}
