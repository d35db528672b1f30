import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { keyFromAuthorization } from '#lib/auth/api-key.ts';
import { ownerOfKey } from '#lib/data/api-keys.ts';
import { log } from '#lib/log.ts';

/** API Gateway answers 401 for exactly this error message. */
const UNAUTHORIZED = 'Unauthorized';

/** Every method and path of the stage: API Gateway caches the answer per key and reuses it on every route. */
export function wholeStageArn(methodArn: string): string {
  const [apiArn, stage] = methodArn.split('/');
  return `${apiArn}/${stage}/*/*`;
}

function authorizationHeader(event: APIGatewayRequestAuthorizerEvent): string | undefined {
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (name.toLowerCase() === 'authorization' && value) return value;
  }
  return undefined;
}

/**
 * REQUEST authorizer: hashes the bearer key and looks it up. Fails closed: a malformed, unknown or
 * revoked key is a 401, and a failed lookup throws (API Gateway answers 5xx, never Allow).
 * Neither the key nor the header is logged.
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const key = keyFromAuthorization(authorizationHeader(event));
  const owner = key === null ? null : await ownerOfKey(key);
  if (owner === null) {
    log('info', 'Authorization refused', {
      requestId: event.requestContext?.requestId,
      reason: key ? 'unknown-or-revoked' : 'malformed',
    });
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
}
