/**
 * When a failed delivery is tried again, and when an endpoint that keeps failing is given up on. Pure: the
 * caller passes the time and the random source.
 *
 * A schedule is the list of delays between attempts: the first attempt goes out at once, attempt n + 1 comes
 * `delays[n - 1]` after attempt n failed, and after the last delay's attempt the event is given up on for that
 * endpoint (its failure stays in the endpoint's deliveries).
 */
import { ConfigError } from '#lib/platform/config-error.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Delays in milliseconds, the one before attempt 2 first. */
export type RetrySchedule = readonly number[];

/**
 * Standard Webhooks' recommended schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, so 8 attempts in all.
 * The delays add up to 27 h 35 min 5 s; with the ±10 % jitter below at its lowest, still 24 h 49 min 34.5 s:
 * an endpoint is tried for more than 24 hours before one event is given up on.
 */
export const DEFAULT_RETRY_DELAYS: RetrySchedule = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** The setting that replaces the default schedule (the local stack's `WEBHOOK_RETRY_DELAYS=1s,1s,1s`). */
export const RETRY_DELAYS_SETTING = 'WEBHOOK_RETRY_DELAYS';

/** Enough for any sensible schedule, and a bound on the attempts one event can cost. */
export const MAX_RETRIES = 20;

/**
 * Proportional jitter: each delay is scaled by a random factor in [0.9, 1.1). Its purpose is to spread the
 * retries of many events that failed together (an endpoint down for an hour) so they do not return in one
 * burst. Full jitter (a random delay between 0 and the delay) spreads them more, but would make the schedule's
 * promise random: a 10 h delay could be a few seconds, and "retried for at least 24 hours" would no longer hold.
 */
export const JITTER_RATIO = 0.1;

/**
 * On AWS a retry waits in SQS: the delivery function hides the job until its next attempt
 * (`ChangeMessageVisibility`). "The maximum visibility timeout is 12 hours from the time that Amazon SQS receives
 * the ReceiveMessage request. Extending the visibility timeout does not reset the 12 hour maximum", and a change
 * past it is rejected ("Amazon SQS visibility timeout", Amazon SQS Developer Guide;
 * https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-visibility-timeout.html): the
 * 12 hours count from the receive, not from the change.
 */
export const SQS_MAX_VISIBILITY_MS = 12 * HOUR;
/**
 * What the delivery function leaves of those 12 hours for the time between the receive and its change: the
 * attempt (the function's 30 s timeout) and any wait of the batch before it (at most the queue's visibility
 * timeout, 3 minutes, or the job is visible again). An hour: far more than either, and a round bound.
 */
export const VISIBILITY_MARGIN_MS = HOUR;
/** The longest the delivery function hides a job for: 11 hours. */
export const MAX_VISIBILITY_MS = SQS_MAX_VISIBILITY_MS - VISIBILITY_MARGIN_MS;
/**
 * The longest delay a schedule may hold: 10 hours (Standard Webhooks' longest), which the jitter at its highest
 * (+10 %) takes to `MAX_VISIBILITY_MS`.
 */
export const MAX_RETRY_DELAY_MS = 10 * HOUR;

const UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR };
const DURATION = /^(\d{1,9})(ms|s|m|h)$/;
const EXPECTED = `${RETRY_DELAYS_SETTING} must be a comma-separated list of durations such as 5s,5m,30m,2h`;

/** Thrown at cold start for a bad `WEBHOOK_RETRY_DELAYS`; the message names the setting and the bad entry. */
export class RetryDelaysError extends ConfigError {
  override name = 'RetryDelaysError';
}

function parseDelay(entry: string): number {
  const [, amount, unit] = DURATION.exec(entry) ?? [];
  const delay = amount === undefined || unit === undefined ? Number.NaN : Number(amount) * (UNITS[unit] ?? Number.NaN);
  if (!(delay > 0)) {
    throw new RetryDelaysError(`${EXPECTED} (whole numbers with ms, s, m or h, above 0); "${entry}" is not one`);
  }
  if (delay > MAX_RETRY_DELAY_MS) {
    throw new RetryDelaysError(
      `${EXPECTED}; "${entry}" is longer than the longest delay, 10h (11h with its jitter: SQS hides a job for at most 12h from its receipt)`,
    );
  }
  return delay;
}

/** Parses `5s,5m,30m,2h`-style text (white space around entries forgiven) into a schedule. */
export function parseRetryDelays(value: string): RetrySchedule {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) throw new RetryDelaysError(`${EXPECTED}; "${value}" has an empty entry`);
  if (entries.length > MAX_RETRIES) {
    throw new RetryDelaysError(`${EXPECTED}, of at most ${MAX_RETRIES} delays; "${value}" has ${entries.length}`);
  }
  return entries.map(parseDelay);
}

/** The schedule a configuration names: the setting's when it is set (and not blank), else the default. */
export const retryScheduleOf = (setting: string | undefined): RetrySchedule =>
  setting === undefined || setting.trim() === '' ? DEFAULT_RETRY_DELAYS : parseRetryDelays(setting);

/** The longest an event can wait for its last attempt, jitter excluded. */
export const totalDelayMs = (schedule: RetrySchedule): number => schedule.reduce((sum, delay) => sum + delay, 0);

/** A delay scaled by the jitter factor `random` picks, never above what the delivery function hides a job for. */
export const jittered = (delayMs: number, random: () => number = Math.random): number =>
  Math.min(MAX_VISIBILITY_MS, Math.round(delayMs * (1 - JITTER_RATIO + 2 * JITTER_RATIO * random())));

/**
 * The visibility timeout that hides a job from `now` until `retryAt`, in whole seconds (what SQS takes): never
 * past `MAX_VISIBILITY_MS`, whatever the times say, and never below 0.
 */
export const visibilityTimeoutSeconds = (retryAt: Date, now: Date): number =>
  Math.min(MAX_VISIBILITY_MS / SECOND, Math.max(0, Math.ceil((retryAt.getTime() - now.getTime()) / SECOND)));

/**
 * When to try again after attempt `attempt` (1 for the first) failed at `now`, or null when that was the last
 * attempt the schedule allows.
 */
export function nextAttemptAt(
  schedule: RetrySchedule,
  attempt: number,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`attempt counts from 1, got ${attempt}`);
  const delay = schedule[attempt - 1];
  return delay === undefined ? null : new Date(now.getTime() + jittered(delay, random));
}

/** An endpoint that has failed every attempt for this long is disabled, with the reason on the resource. */
export const DISABLE_AFTER_MS = 5 * DAY;

/**
 * When the endpoint's current run of failures began, after an attempt at `at`: a success ends the run (null);
 * a failure starts one, or keeps the one already running.
 */
export const failingSinceAfter = (failingSince: Date | null, succeeded: boolean, at: Date): Date | null =>
  succeeded ? null : (failingSince ?? at);

/** Whether an endpoint failing since `failingSince` (null: its last attempt succeeded) is to be disabled now. */
export const shouldDisable = (failingSince: Date | null, now: Date): boolean =>
  failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
