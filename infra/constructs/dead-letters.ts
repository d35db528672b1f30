/** The alarm every dead-letter queue of the stack has: its first message pages the stage. */
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../stages.ts';

export function deadLetterAlarm(
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
