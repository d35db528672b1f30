/**
 * Every Lambda of the API: one bundled handler from `functions/`, with the defaults all of them share.
 */
import { type Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  ApplicationLogLevel,
  Architecture,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { tableDefinition } from '#lib/data/table.ts';
import type { TableAction } from '#lib/routes.ts';
import { functionEntry, projectRoot } from '../bundling.ts';
import type { StageConfig } from '../stages.ts';
import { nodejsBundling } from './nodejs-bundling.ts';

export type ApiFunctionProps = {
  /** Route-table handler, e.g. `spaces/store`. */
  handler: string;
  functionName: string;
  description: string;
  config: StageConfig;
  /**
   * For a function invoked asynchronously (an EventBridge rule's target): where an event goes once Lambda's
   * retries of a failed invocation are spent. The others are invoked synchronously and have none.
   */
  deadLetterQueue?: IQueue;
  /**
   * Without a dead-letter queue: why the function needs none (cdk-nag), when it is not one of those invoked
   * synchronously by API Gateway or the change feed's pipe (the default reason).
   */
  noDeadLetterQueueReason?: string;
  /** A timeout other than the stage's (`config.functions.timeout`): a function that is no API call, or a route's own. */
  timeout?: Duration;
};

const SYNCHRONOUS_ONLY =
  "Invoked only synchronously (API Gateway proxy integration, authorizer, or the change feed pipe's enrichment): a failure is answered to the caller, no event is left for a dead-letter queue (the pipe has its own).";

export class ApiFunction extends NodejsFunction {
  constructor(
    scope: Construct,
    id: string,
    { handler, functionName, description, config, deadLetterQueue, noDeadLetterQueueReason, timeout }: ApiFunctionProps,
  ) {
    // An explicit log group (retention, removal) and a role of the function's own: no managed policy,
    // writes to this log group only.
    const logGroup = new LogGroup(scope, `${id}-logs`, {
      logGroupName: `/aws/lambda/${functionName}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const role = new Role(scope, `${id}-role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Runs ${functionName}`,
    });
    logGroup.grantWrite(role);
    super(scope, id, {
      functionName,
      description,
      entry: functionEntry(handler),
      projectRoot,
      depsLockFilePath: `${projectRoot}/package-lock.json`,
      bundling: nodejsBundling(),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: config.functions.memorySize,
      timeout: timeout ?? config.functions.timeout,
      tracing: Tracing.ACTIVE,
      logGroup,
      // JSON lines with the request id on every line, added by the runtime; debug entries are dropped.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.WARN,
      role,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
      deadLetterQueue,
    });
    if (!deadLetterQueue) {
      Validations.of(this).acknowledge({
        id: 'Serverless-LambdaDLQ',
        reason: noDeadLetterQueueReason ?? SYNCHRONOUS_ONLY,
      });
    }
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Only the X-Ray statement (PutTraceSegments, PutTelemetryRecords) has "*": those actions have no resource-level permissions.',
    });
  }

  /**
   * Points the function at the table (`TABLE_NAME`) and allows exactly these actions on it; `Query` also
   * on the by-name index unless `index` is false. Never an index wildcard, never `dynamodb:*`.
   */
  useTable(table: ITable, actions: readonly TableAction[], { index = true }: { index?: boolean } = {}): this {
    this.addEnvironment('TABLE_NAME', table.tableName);
    const dynamodb = (action: TableAction) => `dynamodb:${action}`;
    this.addToRolePolicy(new PolicyStatement({ actions: actions.map(dynamodb), resources: [table.tableArn] }));
    if (index && actions.includes('Query')) {
      const index = `${table.tableArn}/index/${tableDefinition.byNameIndex.indexName}`;
      this.addToRolePolicy(new PolicyStatement({ actions: [dynamodb('Query')], resources: [index] }));
    }
    return this;
  }
}
