/**
 * When and how long the client waits before sending a request again. Retried: 429 and 503 (after their
 * `Retry-After`), and network failures (the request's `fetch` rejected: the answer may have been lost after
 * the server acted, which is why every write carries an `Idempotency-Key` that its retries reuse). Nothing
 * else is: a 4xx other than 429 is the request's fault, and a 500 would fail again.
 */
import { ApiError } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included; 1 turns retries off. Default 4. */
  attempts?: number;
  /**
   * The longest wait before one retry, in ms. Without `Retry-After` the waits grow (full jitter from 250 ms,
   * doubling) up to this; a `Retry-After` longer than this is not waited for: the `ApiError` is thrown with
   * its `retryAfter`. Default 5,000.
   */
  maxDelayMs?: number;
  /** The most a call may take, its attempts and waits together, in ms: no retry is started whose wait would end later. Default 10,000. */
  budgetMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = { attempts: 4, maxDelayMs: 5_000, budgetMs: 10_000 };

const RETRIED_STATUSES = new Set([429, 503]);
const FIRST_BACKOFF_MS = 250;

/** Errors the client's `fetch` threw (a lost connection, a refused one, a reset): retried unless aborted. */
export const networkErrors = new WeakSet<object>();

/** Runs `attempt` until it succeeds, fails for good, or the attempts or the budget run out. */
export async function withRetries<T>(
  options: Required<RetryOptions>,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  for (let count = 1; ; count++) {
    let delay: number;
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw error;
      delay = retryDelay(error, count, options.maxDelayMs);
      const spent = Date.now() - started;
      if (count >= options.attempts || delay > options.maxDelayMs || spent + delay > options.budgetMs) throw error;
    }
    await sleep(delay, signal);
  }
}

/** How long to wait before attempt `count + 1`; Infinity when the error is not one to retry. */
function retryDelay(error: unknown, count: number, maxDelayMs: number): number {
  const backoff = () => Math.random() * Math.min(maxDelayMs, FIRST_BACKOFF_MS * 2 ** (count - 1));
  if (error instanceof ApiError) {
    if (!RETRIED_STATUSES.has(error.status)) return Number.POSITIVE_INFINITY;
    return error.retryAfter === undefined ? backoff() : error.retryAfter * 1000;
  }
  return typeof error === 'object' && error !== null && networkErrors.has(error) ? backoff() : Number.POSITIVE_INFINITY;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
