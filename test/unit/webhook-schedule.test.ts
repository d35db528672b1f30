import { describe, expect, it } from 'vitest';
import { ConfigError } from '#lib/platform/cold-start.ts';
import {
  DEFAULT_RETRY_DELAYS,
  DISABLE_AFTER_MS,
  failingSinceAfter,
  JITTER_RATIO,
  jittered,
  MAX_RETRY_DELAY_MS,
  MAX_VISIBILITY_MS,
  nextAttemptAt,
  parseRetryDelays,
  RetryDelaysError,
  retryScheduleOf,
  SQS_MAX_VISIBILITY_MS,
  shouldDisable,
  totalDelayMs,
  VISIBILITY_MARGIN_MS,
  visibilityTimeoutSeconds,
} from '#lib/webhooks/rules/schedule.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A random source that always answers `value`. */
const always = (value: number) => () => value;
/** The largest value Math.random can return, just under 1. */
const ALMOST_ONE = 1 - Number.EPSILON / 2;

describe('the default schedule', () => {
  it('is Standard Webhooks’ recommended one: 5s, 5m, 30m, 2h, 5h, 10h, 10h (8 attempts)', () => {
    // Assess
    expect(DEFAULT_RETRY_DELAYS).toEqual([
      5 * SECOND,
      5 * MINUTE,
      30 * MINUTE,
      2 * HOUR,
      5 * HOUR,
      10 * HOUR,
      10 * HOUR,
    ]);
    expect(DEFAULT_RETRY_DELAYS).toEqual(parseRetryDelays('5s,5m,30m,2h,5h,10h,10h'));
  });

  it('retries for more than 24 hours, even with every delay jittered to its shortest', () => {
    // Act
    const total = totalDelayMs(DEFAULT_RETRY_DELAYS);
    const shortest = DEFAULT_RETRY_DELAYS.map((delay) => jittered(delay, always(0))).reduce((a, b) => a + b, 0);
    // Assess: 27 h 35 min 5 s, and 24 h 49 min 34.5 s at worst
    expect(total).toBe(27 * HOUR + 35 * MINUTE + 5 * SECOND);
    expect(shortest).toBe(24 * HOUR + 49 * MINUTE + 34.5 * SECOND);
    expect(shortest).toBeGreaterThan(DAY);
  });

  it('holds every delay within what the delivery function hides a job for (11 h), jitter included', () => {
    // Assess
    for (const delay of DEFAULT_RETRY_DELAYS) {
      expect(delay).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
      expect(jittered(delay, always(ALMOST_ONE))).toBeLessThanOrEqual(MAX_VISIBILITY_MS);
    }
  });

  it('applies when WEBHOOK_RETRY_DELAYS is not set or blank', () => {
    // Assess
    expect(retryScheduleOf(undefined)).toBe(DEFAULT_RETRY_DELAYS);
    expect(retryScheduleOf('  ')).toBe(DEFAULT_RETRY_DELAYS);
    expect(retryScheduleOf('1s,1s,1s')).toEqual([SECOND, SECOND, SECOND]);
  });
});

describe('WEBHOOK_RETRY_DELAYS', () => {
  it.each([
    ['1s,1s,1s', [SECOND, SECOND, SECOND]],
    ['250ms', [250]],
    ['5s,5m,30m,2h', [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR]],
    [' 1m , 90s ,2h ', [MINUTE, 90 * SECOND, 2 * HOUR]],
    ['10h', [10 * HOUR]],
    ['36000000ms', [10 * HOUR]],
    [Array(20).fill('1s').join(','), Array(20).fill(SECOND)],
  ])('%s → %j', (value, delays) => {
    // Act / Assess
    expect(parseRetryDelays(value)).toEqual(delays);
  });

  it.each([
    ['an empty value', '', 'has an empty entry'],
    ['an empty entry', '1s,,1s', 'has an empty entry'],
    ['a trailing comma', '1s,', 'has an empty entry'],
    ['no unit', '5', '"5" is not one'],
    ['an unknown unit', '5d', '"5d" is not one'],
    ['a unit in capitals', '5S', '"5S" is not one'],
    ['a fraction', '1.5h', '"1.5h" is not one'],
    ['a negative delay', '-5s', '"-5s" is not one'],
    ['zero', '0s', '"0s" is not one'],
    ['a space inside', '5 s', '"5 s" is not one'],
    ['an ISO duration', 'PT5S', '"PT5S" is not one'],
    ['a delay over 12 hours', '13h', '"13h" is longer than the longest delay, 10h'],
    ['12 hours, SQS’s bound from the receive', '12h', '"12h" is longer than the longest delay, 10h'],
    ['11 hours, 12.1 with its jitter', '11h', '"11h" is longer than the longest delay, 10h'],
    ['one millisecond over 10 hours', '36000001ms', '"36000001ms" is longer than the longest delay, 10h'],
    ['21 delays', Array(21).fill('1s').join(','), 'of at most 20 delays'],
  ])('refuses %s with a message naming the setting', (_, value, detail) => {
    // Act
    const parse = () => parseRetryDelays(value);
    // Assess
    expect(parse).toThrow(RetryDelaysError);
    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(/^WEBHOOK_RETRY_DELAYS must be a comma-separated list of durations such as 5s,5m,30m,2h/);
    expect(parse).toThrow(detail);
  });

  it('fails the same way through the configuration', () => {
    // Assess
    expect(() => retryScheduleOf('5x')).toThrow('WEBHOOK_RETRY_DELAYS must be a comma-separated list of durations');
  });
});

describe('jitter', () => {
  it(`is proportional: ±${JITTER_RATIO * 100} % around the delay, as the random source picks`, () => {
    // Assess
    expect(jittered(10 * SECOND, always(0))).toBe(9 * SECOND);
    expect(jittered(10 * SECOND, always(0.5))).toBe(10 * SECOND);
    expect(jittered(10 * SECOND, always(0.25))).toBe(9.5 * SECOND);
    expect(jittered(10 * SECOND, always(ALMOST_ONE))).toBe(11 * SECOND);
  });

  it('stays within its bounds for any random value, in whole milliseconds', () => {
    // Prepare
    const randoms = [0, 1e-9, 0.1, 0.333, 0.5, 0.77, 0.9, 0.999999, ALMOST_ONE];
    for (const delay of [1, 250, SECOND, 5 * MINUTE, 10 * HOUR]) {
      for (const random of randoms) {
        // Act
        const value = jittered(delay, always(random));
        // Assess
        expect(Number.isInteger(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(Math.floor(delay * 0.9));
        expect(value).toBeLessThanOrEqual(Math.ceil(delay * 1.1));
      }
    }
  });

  it('never takes a delay past 11 hours, what the delivery function hides a job for', () => {
    // Assess
    expect(jittered(12 * HOUR, always(ALMOST_ONE))).toBe(MAX_VISIBILITY_MS);
    expect(jittered(12 * HOUR, always(0))).toBe(10.8 * HOUR);
  });

  it('spreads many retries apart with the real random source', () => {
    // Act
    const values = Array.from({ length: 500 }, () => jittered(HOUR));
    // Assess
    expect(new Set(values).size).toBeGreaterThan(400);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0.9 * HOUR);
    expect(Math.max(...values)).toBeLessThanOrEqual(1.1 * HOUR);
  });
});

describe('nextAttemptAt', () => {
  const now = new Date('2026-11-25T10:00:00.000Z');
  const schedule = parseRetryDelays('5s,5m,30m');

  it('takes the delay after the attempt that failed, jittered', () => {
    // Assess: attempt 1 failed → attempt 2 five seconds later, …
    expect(nextAttemptAt(schedule, 1, now, always(0.5))).toEqual(new Date('2026-11-25T10:00:05.000Z'));
    expect(nextAttemptAt(schedule, 2, now, always(0.5))).toEqual(new Date('2026-11-25T10:05:00.000Z'));
    expect(nextAttemptAt(schedule, 3, now, always(0.5))).toEqual(new Date('2026-11-25T10:30:00.000Z'));
    expect(nextAttemptAt(schedule, 1, now, always(0))).toEqual(new Date('2026-11-25T10:00:04.500Z'));
    expect(nextAttemptAt(schedule, 3, now, always(ALMOST_ONE))).toEqual(new Date('2026-11-25T10:33:00.000Z'));
  });

  it('gives up after the last delay’s attempt', () => {
    // Assess: 3 delays, 4 attempts
    expect(nextAttemptAt(schedule, 4, now, always(0.5))).toBeNull();
    expect(nextAttemptAt(DEFAULT_RETRY_DELAYS, 7, now, always(0.5))).toEqual(new Date(now.getTime() + 10 * HOUR));
    expect(nextAttemptAt(DEFAULT_RETRY_DELAYS, 8, now, always(0.5))).toBeNull();
  });

  it('counts attempts from 1', () => {
    // Assess
    expect(() => nextAttemptAt(schedule, 0, now)).toThrow(RangeError);
    expect(() => nextAttemptAt(schedule, 1.5, now)).toThrow(RangeError);
  });
});

describe('an endpoint failing for 5 days in a row', () => {
  const start = new Date('2026-11-20T08:00:00.000Z');
  const at = (ms: number) => new Date(start.getTime() + ms);

  it('starts its run of failures at its first failed attempt, keeps it while failing, ends it on a success', () => {
    // Act / Assess
    const first = failingSinceAfter(null, false, start);
    expect(first).toEqual(start);
    expect(failingSinceAfter(first, false, at(HOUR))).toEqual(start);
    expect(failingSinceAfter(first, true, at(2 * HOUR))).toBeNull();
    expect(failingSinceAfter(null, true, at(2 * HOUR))).toBeNull();
  });

  it('is disabled once 5 days have passed since the run began, not a millisecond before', () => {
    // Assess
    expect(DISABLE_AFTER_MS).toBe(5 * DAY);
    expect(shouldDisable(start, at(5 * DAY - 1))).toBe(false);
    expect(shouldDisable(start, at(5 * DAY))).toBe(true);
    expect(shouldDisable(start, at(6 * DAY))).toBe(true);
  });

  it('is never disabled while its last attempt succeeded', () => {
    // Assess
    expect(shouldDisable(null, at(30 * DAY))).toBe(false);
  });

  it('counts from the run’s first failure: a success in between starts the count again', () => {
    // Prepare: failing for 4 days, one success, failing again for 4 days
    let failingSince = failingSinceAfter(null, false, start);
    failingSince = failingSinceAfter(failingSince, false, at(4 * DAY));
    failingSince = failingSinceAfter(failingSince, true, at(4 * DAY + HOUR));
    failingSince = failingSinceAfter(failingSince, false, at(4 * DAY + 2 * HOUR));
    // Act
    const disabled = shouldDisable(failingSince, at(8 * DAY + 2 * HOUR));
    // Assess
    expect(failingSince).toEqual(at(4 * DAY + 2 * HOUR));
    expect(disabled).toBe(false);
    expect(shouldDisable(failingSince, at(9 * DAY + 2 * HOUR))).toBe(true);
  });
});

describe('the visibility change', () => {
  it("leaves an hour of SQS's 12 hours from the receive for the attempt: at most 11 h, which the longest delay's jitter reaches", () => {
    // Assess: "The maximum visibility timeout is 12 hours from the time that Amazon SQS receives the ReceiveMessage request"
    expect(SQS_MAX_VISIBILITY_MS).toBe(12 * HOUR);
    expect(VISIBILITY_MARGIN_MS).toBe(HOUR);
    expect(MAX_VISIBILITY_MS).toBe(11 * HOUR);
    expect(MAX_RETRY_DELAY_MS).toBe(10 * HOUR);
    expect(jittered(MAX_RETRY_DELAY_MS, always(ALMOST_ONE))).toBe(MAX_VISIBILITY_MS);
    expect(MAX_RETRY_DELAY_MS * (1 + JITTER_RATIO)).toBeLessThanOrEqual(MAX_VISIBILITY_MS);
  });

  it('hides a job until its retry, in whole seconds rounded up', () => {
    // Prepare
    const now = new Date('2026-01-01T00:00:00.000Z');
    const later = (ms: number) => new Date(now.getTime() + ms);
    // Assess
    expect(visibilityTimeoutSeconds(later(1_200), now)).toBe(2);
    expect(visibilityTimeoutSeconds(later(5 * MINUTE), now)).toBe(300);
    expect(visibilityTimeoutSeconds(later(MAX_VISIBILITY_MS), now)).toBe(39_600);
    expect(visibilityTimeoutSeconds(later(-SECOND), now)).toBe(0);
  });

  it('never asks SQS for 11 hours or more, whatever the retry time says', () => {
    // Prepare
    const now = new Date('2026-01-01T00:00:00.000Z');
    // Act / Assess: 12 h and 12 h 1 ms away (SQS would refuse both, counting from the receive before now)
    for (const ms of [12 * HOUR, 12 * HOUR + 1, 3 * DAY]) {
      expect(visibilityTimeoutSeconds(new Date(now.getTime() + ms), now)).toBe(MAX_VISIBILITY_MS / SECOND);
    }
  });
});
