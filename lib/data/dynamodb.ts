/** The one DynamoDB client module: every data function takes the `Db` built here. */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '#lib/platform/config.ts';

/** What the data module needs: the client, the table, and the per-owner quotas it enforces. */
export type Db = {
  client: DynamoDBDocumentClient;
  tableName: string;
  maxItemsPerOwner: number;
  /** Webhooks one owner may hold (`lib/webhooks/data/webhooks.ts` has the default). */
  maxWebhooksPerOwner?: number;
};

/**
 * Retries and timeouts stay well inside the Lambda timeout so a slow call becomes a 503, not a timeout.
 * `requestTimeout` bounds each attempt (connection included) only with `throwOnRequestTimeout`: without it
 * the SDK merely logs a warning and a stalled DynamoDB call waits until the Lambda itself times out.
 */
export const dynamoClientConfig = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1_000, requestTimeout: 2_000, throwOnRequestTimeout: true },
} as const;

/**
 * The low-level client. An endpoint override (DynamoDB Local) takes static credentials, which DynamoDB Local
 * accepts, and a region of its own; on AWS the SDK's defaults apply.
 */
export function createDynamoClient(
  config: Pick<Config, 'dynamodbEndpoint' | 'region'>,
  overrides: DynamoDBClientConfig = {},
): DynamoDBClient {
  const local = config.dynamodbEndpoint
    ? {
        endpoint: config.dynamodbEndpoint,
        region: config.region ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }
    : config.region
      ? { region: config.region }
      : {};
  return new DynamoDBClient({ ...dynamoClientConfig, ...local, ...overrides });
}

/** `overrides` change the client's settings for a measurement (the bench's scale section); the API uses none. */
export function createDb(
  config: Pick<Config, 'tableName' | 'dynamodbEndpoint' | 'region' | 'maxItemsPerOwner'> & {
    maxWebhooksPerOwner?: number;
  },
  overrides: DynamoDBClientConfig = {},
): Db {
  return {
    client: DynamoDBDocumentClient.from(createDynamoClient(config, overrides), {
      marshallOptions: { removeUndefinedValues: true },
    }),
    tableName: config.tableName,
    maxItemsPerOwner: config.maxItemsPerOwner,
    maxWebhooksPerOwner: config.maxWebhooksPerOwner,
  };
}
