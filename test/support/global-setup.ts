/** Starts one in-memory DynamoDB Local for the whole run; each test file gets its own table. */
import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

let dynamo: DynamoDbLocal | undefined;

export async function setup(project: TestProject) {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (endpoint) {
    project.provide('dynamoEndpoint', endpoint);
    return;
  }
  dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown() {
  await dynamo?.stop();
}
