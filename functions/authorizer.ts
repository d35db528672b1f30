import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { hashApiKey, keyFromAuthorization } from '#lib/auth/api-key.ts';
import { AUTHORIZATION_REFUSED, authorizerResult } from '#lib/auth/policy.ts';
import { atColdStart, type Config } from '#lib/config.ts';
import { LAST_USE_RESOLUTION_SECONDS, lookUpKey, recordKeyUse } from '#lib/data/api-keys.ts';
import { createDb } from '#lib/dynamodb.ts';
import { header } from '#lib/http/headers.ts';
import { log } from '#lib/log.ts';

/** API Gateway answers 401 for exactly this error message (a Deny policy would be a 403). */
const UNAUTHORIZED = 'Unauthorized';

/**
 * How long the answer may wait for the last-use write once the lookup is done. The two are sent together and
 * take about as long, so the write is normally done first; this bounds what a slow write can add.
 */
export const LAST_USE_WAIT_MS = 100;

export type AuthorizerOptions = {
  /** Record each key's last use (on by default; off only to measure what recording costs). */
  recordLastUse?: boolean;
  lastUseResolutionSeconds?: number;
  lastUseWaitMs?: number;
};

/** Resolves when the promise settles or after `ms`, whichever is first; never rejects. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(resolve, ms, false);
    }),
  ]);
  clearTimeout(timer);
  return done;
}

/**
 * REQUEST authorizer: hashes the bearer key and looks it up (one strongly consistent GetItem). An unknown,
 * revoked or expired key, or a malformed header, is a 401; a failed lookup throws (API Gateway answers 5xx,
 * never Allow). A valid key gets a policy allowing exactly the routes its scopes cover, on the whole stage
 * (the answer is cached per key and reused on every route), so API Gateway answers 403 for the others.
 *
 * Alongside the lookup, a conditional UpdateItem records the key's last use (at most once a minute per key).
 * It is awaited, so that Lambda does not freeze it half-done, but for at most `LAST_USE_WAIT_MS` after the
 * lookup; whatever happens to it, it never changes the answer.
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
    const recording = recordLastUse ? record(hash, now) : undefined;
    const found = await lookUpKey(db, hash, now);
    if (recording && !(await settledWithin(recording, lastUseWaitMs))) {
      log('warn', 'Last use not recorded', { error: 'still pending when the answer was ready' });
    }
    if (!found.found) {
      log('info', AUTHORIZATION_REFUSED, { reason: found.reason, ...(found.prefix ? { prefix: found.prefix } : {}) });
      throw new Error(UNAUTHORIZED);
    }
    return authorizerResult(event.methodArn, found.owner, found.scopes);
  };
};

export const handler = atColdStart(create);
