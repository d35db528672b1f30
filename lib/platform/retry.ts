/**
 * The one way a step is tried again here: the write path's contended transactions, a replay waiting for its
 * record, the key tool's transactions and batch reads, the edge sync's conditional writes. A policy says how
 * long to wait before each retry and when to give up (after so many attempts, or before a wait would run past a
 * time budget); the step says whether it is done. Pure but for the clock and the timer.
 */

/** What a step returns when it is not done and should be tried again. */
export const again: unique symbol = Symbol('again');
export type Again = typeof again;

export type RetryPolicy = {
  /** The most attempts in all (the first included); unbounded when absent. */
  attempts?: number;
  /** Gives up before a wait that would end past this many ms from the first attempt's start. */
  budgetMs?: number;
  /** The wait before retry `retry` (1 for the second attempt), `elapsedMs` into the budget. */
  delayMs: (retry: number, elapsedMs: number) => number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `step` (given its attempt number, from 1) until it returns something other than `again`, waiting as the
 * policy says between attempts; when the policy gives up, throws what `exhausted` makes.
 */
export async function retrying<Result>(
  policy: RetryPolicy,
  step: (attempt: number) => Promise<Result | Again>,
  exhausted: () => Error,
): Promise<Result> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const result = await step(attempt);
    if (result !== again) return result as Result;
    if (policy.attempts !== undefined && attempt >= policy.attempts) throw exhausted();
    const wait = policy.delayMs(attempt, Date.now() - started);
    if (policy.budgetMs !== undefined && Date.now() + wait >= started + policy.budgetMs) throw exhausted();
    if (wait > 0) await sleep(wait);
  }
}

/** No wait: the next attempt reads again at once (a collision drawn again, a state read again). */
export const noWait = () => 0;

/** Full jitter: a random wait below `base` · 2^(retry − 1), at most `cap` ms. */
export const fullJitter =
  (base: number, cap: number) =>
  (retry: number): number =>
    Math.random() * Math.min(cap, base * 2 ** (retry - 1));
