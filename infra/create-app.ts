/**
 * The CDK app for one stage, as `infra/app.ts` runs it and the infra tests synthesize it. The stack is
 * environment-agnostic unless the CLI knows an account and region (CDK_DEFAULT_*), so it synthesizes
 * offline without credentials.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { ServiceStack } from './stack.ts';
import { stageConfig } from './stages.ts';

/** Adds the stage's stack, and the cdk-nag AwsSolutions and Serverless checks that run on synthesis. */
export function createApp(stage: unknown, app = new App()) {
  const config = stageConfig(stage);
  const stack = new ServiceStack(app, {
    config,
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { app, stack, config };
}
