/**
 * The local gateway's per-key rate limit, the rule AWS WAF enforces on AWS (`infra/constructs/waf.ts`): at most
 * `limit` requests per fixed 60-second window per `Authorization` value. Pure: the clock is injected.
 */
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limits.ts';

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

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
      if (window.count >= limit) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + windowMs - time) / 1000)) };
      }
      window.count += 1;
      return { allowed: true };
    },
    get size() {
      return windows.size;
    },
  };
}
