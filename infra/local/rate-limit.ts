/**
 * The local gateway's per-key rate limit, the rule AWS WAF enforces on AWS (`infra/constructs/waf.ts`): at most
 * `limit` requests per fixed 60-second window per key (`rateLimitKey`). Pure: the clock is injected.
 */
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limits.ts';

/** `Bearer <token>`: the scheme in any case (RFC 9110 §11.1), then one or more spaces or tabs (§11.4: `1*SP`). */
const BEARER = /^[ \t]*bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * What a request counts under: the key itself, whatever the spelling of the header around it, so that
 * `bearer <key>` and `Bearer  <key>` spend one budget (the authorizer may still refuse a spelling: it accepts one
 * space only). A header with no bearer token in it counts under its own value, folded as the WAF rule folds
 * every value (lower case, runs of white space as one space).
 */
export function rateLimitKey(authorization: string): string {
  const token = authorization.match(BEARER)?.[1];
  return token !== undefined ? `key ${token}` : `header ${authorization.trim().replace(/\s+/g, ' ').toLowerCase()}`;
}

/**
 * Whether a request may go on; if so, what is left of its key's window (requests, and seconds until it resets),
 * which the gateway answers in `RateLimit` (`lib/http/rate-limit.ts`).
 */
export type RateLimitDecision =
  | { allowed: true; remaining: number; resetSeconds: number }
  | { allowed: false; retryAfterSeconds: number };

export type RateLimiterOptions = {
  /** Requests allowed per key and window. */
  limit: number;
  windowMs?: number;
  /** Milliseconds since the epoch. */
  now?: () => number;
  /** Keys tracked at once; past it the oldest window is forgotten (that key starts afresh, never refused). */
  maxKeys?: number;
};

export type RateLimiter = {
  /** Counts one request for this key and says whether it may go on. */
  take(key: string): RateLimitDecision;
  /** Keys with a window in memory (for tests and diagnostics). */
  readonly size: number;
};

export function createRateLimiter({
  limit,
  windowMs = RATE_LIMIT_WINDOW_SECONDS * 1000,
  now = Date.now,
  maxKeys = 100_000,
}: RateLimiterOptions): RateLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`Rate limit must be a positive integer, not ${limit}`);
  // Insertion order is window start order (a key's new window is deleted and set again), so the expired
  // windows are always at the front: eviction stops at the first live one.
  const windows = new Map<string, { start: number; count: number }>();

  function evict(time: number) {
    for (const [key, window] of windows) {
      if (time - window.start < windowMs && windows.size <= maxKeys) break;
      windows.delete(key);
    }
  }

  return {
    take(key) {
      const time = now();
      evict(time);
      let window = windows.get(key);
      if (!window) {
        window = { start: time, count: 0 };
        windows.set(key, window);
        evict(time);
      }
      const resetSeconds = Math.max(1, Math.ceil((window.start + windowMs - time) / 1000));
      if (window.count >= limit) return { allowed: false, retryAfterSeconds: resetSeconds };
      window.count += 1;
      return { allowed: true, remaining: limit - window.count, resetSeconds };
    },
    get size() {
      return windows.size;
    },
  };
}
