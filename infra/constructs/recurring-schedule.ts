/**
 * An EventBridge Scheduler schedule that invokes one function at a fixed rate, with a role of its own (not the
 * stack-wide one Scheduler targets share) that may invoke that function and send to its dead-letter queue.
 * A run that fails is retried twice; one not delivered within its interval is superseded by the next.
 */
import { type CfnElement, type Duration, Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export type RecurringScheduleProps = {
  scheduleName: string;
  /** How often it runs. */
  every: Duration;
  description: string;
  target: IFunction;
  deadLetterQueue: IQueue;
  /** The event the function is invoked with (none: an empty object). */
  input?: Record<string, unknown>;
};

export function recurringSchedule(scope: Construct, id: string, props: RecurringScheduleProps): Schedule {
  const { scheduleName, description, every, target, deadLetterQueue, input } = props;
  const role = new Role(scope, `${id}-role`, {
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
      conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
    }),
    description: `Invokes ${target.functionName} for ${scheduleName}`,
  });
  // cdk-nag names the resource by the function's logical id.
  const functionId = Stack.of(scope).getLogicalId(target.node.defaultChild as CfnElement);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${functionId}.Arn>:*]`,
    reason: "The function's versions (`:*`, as grantInvoke writes it): this one function only.",
  });
  return new Schedule(scope, id, {
    scheduleName,
    description,
    schedule: ScheduleExpression.rate(every),
    target: new LambdaInvoke(target, {
      role,
      deadLetterQueue,
      retryAttempts: 2,
      maxEventAge: every,
      ...(input ? { input: ScheduleTargetInput.fromObject(input) } : {}),
    }),
  });
}
