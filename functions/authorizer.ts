import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { LAST_USE_RESOLUTION_SECONDS, lastUseIsStale, lookUpKey, recordKeyUse } from '#lib/auth/data/keys.ts';
import { AUTHORIZATION_REFUSED, authorizerResult } from '#lib/auth/policy.ts';
import { hashApiKey, keyFromAuthorization } from '#lib/auth/rules/api-key.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { header } from '#lib/http/headers.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { log } from '#lib/platform/log.ts';

/** API Gateway answers 401 for exactly this error message (a Deny policy would be a 403). */
const UNAUTHORIZED = 'Unauthorized';

/**
 * How long the answer may wait for the last-use write. By then the request has normally left, and DynamoDB
 * applies a write whether or not its answer is read before Lambda freezes the function; this bounds what a slow
 * write adds to the one answer an hour per key that records its use.
 */
export const LAST_USE_WAIT_MS = 25;

export type AuthorizerOptions = {
  /** Record each key's last use (on by default; off only to measure what recording costs). */
  recordLastUse?: boolean;
  lastUseResolutionSeconds?: number;
  lastUseWaitMs?: number;
};

/** Waits for the promise to settle, or `ms`, whichever comes first. */
async function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * REQUEST authorizer: hashes the bearer key and looks it up (one strongly consistent GetItem). An unknown,
 * revoked or expired key, or a malformed header, is a 401; a failed lookup throws (API Gateway answers 5xx,
 * never Allow). A valid key gets a policy allowing exactly the routes its scopes cover, on the whole stage
 * (the answer is cached per key and reused on every route), so API Gateway answers 403 for the others.
 *
 * Last use: when the key's recorded use is over an hour old (`LAST_USE_RESOLUTION_SECONDS`), a conditional
 * UpdateItem records this one. Every other run, i.e. nearly all of a busy key's, only reads. The write is
 * awaited, so that Lambda does not freeze it unsent, for at most `LAST_USE_WAIT_MS`; it never changes the
 * answer (a failure is logged as a warning).
 * Neither the key nor its hash nor the header is logged.
 */
export const create = (config: Config, db = createDb(config), options: AuthorizerOptions = {}) => {
  const {
    recordLastUse = true,
    lastUseResolutionSeconds = LAST_USE_RESOLUTION_SECONDS,
    lastUseWaitMs = LAST_USE_WAIT_MS,
  } = options;

  const record = (hash: string, now: Date) =>
    recordKeyUse(db, hash, now, lastUseResolutionSeconds).catch((error: Error) => {
      log('warn', 'Last use not recorded', {
        error: error?.name,
        statusCode: (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode,
      });
    });

  return async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
    const key = keyFromAuthorization(header(event.headers, 'authorization') || undefined);
    if (key === null) {
      log('info', AUTHORIZATION_REFUSED, { reason: 'malformed' });
      throw new Error(UNAUTHORIZED);
    }
    const hash = hashApiKey(key);
    const now = new Date();
    const found = await lookUpKey(db, hash, now);
    if (!found.found) {
      log('info', AUTHORIZATION_REFUSED, { reason: found.reason, ...(found.prefix ? { prefix: found.prefix } : {}) });
      throw new Error(UNAUTHORIZED);
    }
    if (recordLastUse && lastUseIsStale(found.lastUsedAt, now, lastUseResolutionSeconds)) {
      await within(record(hash, now), lastUseWaitMs);
    }
    return authorizerResult(event.methodArn, found.owner, found.scopes, found.lineage);
  };
};

export const handler = atColdStart(create, loadConfig);
