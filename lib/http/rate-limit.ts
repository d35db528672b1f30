/**
 * The rate-limit fields of draft-ietf-httpapi-ratelimit-headers-10 ("RateLimit header fields for HTTP", the
 * IETF httpapi working group's draft; https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/),
 * as this API sends them: one quota policy, `"per-key"`, of `q` requests per `w` = 60 s per API key (the web
 * ACL's rule on AWS, the local gateway's limiter on a laptop).
 *
 * - `RateLimit-Policy: "per-key";q=300;w=60` on every answer a function makes for a key the authorizer passed:
 *   the policy does not change between answers (section 3 of the draft: it "SHOULD remain consistent").
 * - `RateLimit: "per-key";r=299;t=42` (remaining requests, seconds until the window resets) only where the
 *   counter is known: the local gateway. On AWS the web ACL counts, and reports nothing of its count to the
 *   API, so answers there carry the policy only (docs/api.md, "Rate limits").
 *
 * Both are Structured Field Lists of one Item: a String (the policy's name) with Integer parameters. Pure.
 */

/** The one window the per-key limit counts over, AWS WAF's and the local gateway's (`infra/rate-limits.ts`). */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** The name both fields give the per-key policy. */
export const RATE_LIMIT_POLICY_NAME = 'per-key';

/** `RateLimit-Policy` for a limit of `perMinute` requests per key and window. */
export const rateLimitPolicy = (perMinute: number): string =>
  `"${RATE_LIMIT_POLICY_NAME}";q=${perMinute};w=${RATE_LIMIT_WINDOW_SECONDS}`;

/** `RateLimit`: the requests left in the key's window, and the seconds until it resets. */
export const rateLimitState = (remaining: number, resetSeconds: number): string =>
  `"${RATE_LIMIT_POLICY_NAME}";r=${Math.max(0, remaining)};t=${Math.max(0, resetSeconds)}`;
