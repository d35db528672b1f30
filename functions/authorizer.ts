import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { keyFromAuthorization } from '#lib/auth/api-key.ts';
import { atColdStart, type Config } from '#lib/config.ts';
import { ownerOfKey } from '#lib/data/api-keys.ts';
import { createDb } from '#lib/dynamodb.ts';
import { header } from '#lib/http/headers.ts';
import { log } from '#lib/log.ts';

/** API Gateway answers 401 for exactly this error message. */
const UNAUTHORIZED = 'Unauthorized';

/** Every method and path of the stage: API Gateway caches the answer per key and reuses it on every route. */
export function wholeStageArn(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*/*`;
}

/**
 * REQUEST authorizer: hashes the bearer key and looks it up. Fails closed: a malformed, unknown or
 * revoked key is a 401, and a failed lookup throws (API Gateway answers 5xx, never Allow).
 * Neither the key nor the header is logged.
 */
export const create =
  (config: Config, db = createDb(config)) =>
  async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const key = keyFromAuthorization(header(event.headers, 'authorization') || undefined);
    const owner = key === null ? null : await ownerOfKey(db, key);
    if (owner === null) {
      log('info', 'Authorization refused', { reason: key ? 'unknown-or-revoked' : 'malformed' });
      throw new Error(UNAUTHORIZED);
    }
    return {
      principalId: owner,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: wholeStageArn(event.methodArn) }],
      },
      context: { ownerId: owner },
    };
  };

export const handler = atColdStart(create);
