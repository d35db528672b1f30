/**
 * The re-check of active domains' DNS records (`functions/domains/recheck.ts`): an EventBridge Scheduler
 * schedule invokes the function every 5 minutes; it checks the domains due in the sparse due-check index
 * (`lib/data/table.ts`: each is due an hour after its last check, or 5 minutes while it waits for its DNS or
 * certificate in its first 72 hours) until they are done or its time runs short, and what it did not reach
 * stays due for the next run. A run that fails is retried twice by the scheduler, then its event lands in a dead-letter queue that alarms
 * (as do the function's errors, like every function's).
 */
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Schedule } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type StageConfig, serviceName } from '#infra/stages.ts';
import { tableDefinition } from '#lib/data/table.ts';
import { FAST_RECHECK_INTERVAL_MS } from '#lib/domains/rules/dns-records.ts';
import { ApiFunction } from './api-function.ts';
import { deadLetterQueue } from './dead-letters.ts';
import { recurringSchedule } from './recurring-schedule.ts';

/** The re-check Lambda: its handler under `functions/`, and its name after the stack's. */
export const domainChecksFunction = { name: 'recheck-domains', handler: 'domains/recheck' } as const;

/**
 * Its timeout: long enough for thousands of domains a run (eight lookups at a time), inside the schedule's
 * 5 minutes, so runs never overlap. The function stops taking domains 15 s before it (`runDueChecks`' reserve).
 */
export const DOMAIN_CHECKS_TIMEOUT = Duration.minutes(4);

export type DomainChecksProps = { config: StageConfig; table: ITable; alarms: ITopic };

export class DomainChecks extends Construct {
  readonly function: ApiFunction;
  readonly schedule: Schedule;
  readonly deadLetters: Queue;

  constructor(scope: Construct, id: string, { config, table, alarms }: DomainChecksProps) {
    super(scope, id);
    const name = `${serviceName}-${config.stage}`;

    this.deadLetters = deadLetterQueue(this, {
      name: `${name}-domain-checks-dead-letters`,
      whose: "the domain checks' (the schedule's and the function's)",
      alarmDescription: 'Domain re-checks that failed after their retries: see docs/deployment.md.',
      config,
      alarms,
    });

    // The item and its event, the feed head, and the global name guard a domain returning to pending releases:
    // `recheckDomain` is one `updateItem` change. Query on the due-check index only, never on the table.
    this.function = new ApiFunction(this, 'function', {
      handler: domainChecksFunction.handler,
      functionName: `${name}-${domainChecksFunction.name}`,
      description: "Re-check of active domains' DNS records (5-minute schedule)",
      config,
      timeout: DOMAIN_CHECKS_TIMEOUT,
      deadLetterQueue: this.deadLetters,
    }).useTable(table, ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], { index: false });
    this.function.addToRolePolicy(
      new PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [`${table.tableArn}/index/${tableDefinition.dueCheckIndex.indexName}`],
      }),
    );

    // Its id stays `hourly`, the logical id it was deployed with.
    this.schedule = recurringSchedule(this, 'hourly', {
      scheduleName: `${name}-domain-checks`,
      description: 'Re-checks the active domains due (docs/deployment.md, The re-check)',
      every: Duration.millis(FAST_RECHECK_INTERVAL_MS),
      target: this.function,
      deadLetterQueue: this.deadLetters,
    });
  }
}
