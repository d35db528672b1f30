/**
 * CDK app: `npx cdk synth|deploy -c stage=dev|prod` (default dev). The stack is environment-agnostic unless
 * the CLI knows an account and region (CDK_DEFAULT_*), so it synthesizes offline without credentials.
 */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { ServiceStack } from './stack.ts';
import { stageConfig } from './stages.ts';

/** The app for one stage, with the cdk-nag AwsSolutions and Serverless checks run on synthesis. */
export function createApp(stage: unknown, app = new App()) {
  const config = stageConfig(stage);
  const stack = new ServiceStack(app, {
    config,
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { app, stack, config };
}

if (import.meta.main) {
  const app = new App();
  createApp(app.node.tryGetContext('stage') ?? 'dev', app);
  app.synth();
}
