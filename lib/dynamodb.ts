import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { requireEnv } from '#lib/config.ts';

export const tableName = requireEnv('TABLE_NAME');

/**
 * Retries and timeouts stay well inside the Lambda timeout so a slow call becomes a 503, not a timeout.
 * `requestTimeout` bounds each attempt (connection included) only with `throwOnRequestTimeout`: without it
 * the SDK merely logs a warning and a stalled DynamoDB call waits until the Lambda itself times out.
 */
export const dynamoClientConfig = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000, throwOnRequestTimeout: true },
} as const;

/** The endpoint override points the SDK at DynamoDB Local, which accepts any static credentials. */
function localOverrides() {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint) return {};
  return {
    endpoint,
    region: process.env.AWS_REGION ?? 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  };
}

export const db = DynamoDBDocumentClient.from(new DynamoDBClient({ ...dynamoClientConfig, ...localOverrides() }), {
  marshallOptions: { removeUndefinedValues: true },
});
