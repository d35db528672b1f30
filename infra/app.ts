/** CDK app entry (cdk.json): `npx cdk synth|deploy -c stage=dev|prod`, default dev. */
import { App } from 'aws-cdk-lib';
import { createApp } from './create-app.ts';

const app = new App();
createApp(app.node.tryGetContext('stage') ?? 'dev', app);
app.synth();
