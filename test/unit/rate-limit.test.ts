import { describe, expect, it } from 'vitest';
import { createRateLimiter, rateLimitKey } from '#infra/local/rate-limit.ts';

/** A clock the test moves by hand. */
function fakeClock(start = 1_700_000_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

const takeMany = (limiter: ReturnType<typeof createRateLimiter>, key: string, times: number) =>
  Array.from({ length: times }, () => limiter.take(key));

describe('createRateLimiter', () => {
  it('allows the limit within a window and refuses the next with the seconds left', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 5, now: clock.now });
    // Act
    const first = takeMany(limiter, 'Bearer a', 5);
    clock.advance(20_500);
    const sixth = limiter.take('Bearer a');
    // Assess
    expect(first).toEqual([4, 3, 2, 1, 0].map((remaining) => ({ allowed: true, remaining, resetSeconds: 60 })));
    expect(sixth).toEqual({ allowed: false, retryAfterSeconds: 40 });
  });

  it('counts each key on its own', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 2, now: clock.now });
    takeMany(limiter, 'Bearer a', 2);
    // Act
    const a = limiter.take('Bearer a');
    const b = takeMany(limiter, 'Bearer b', 2);
    // Assess
    expect(a.allowed).toBe(false);
    expect(b).toEqual([
      { allowed: true, remaining: 1, resetSeconds: 60 },
      { allowed: true, remaining: 0, resetSeconds: 60 },
    ]);
  });

  it('starts a new window once the previous one is over, and a refusal does not count', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 2, now: clock.now });
    takeMany(limiter, 'k', 2);
    clock.advance(59_999);
    // Act
    const lastMoment = limiter.take('k');
    clock.advance(1);
    const next = takeMany(limiter, 'k', 3);
    // Assess
    expect(lastMoment).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(next).toEqual([
      { allowed: true, remaining: 1, resetSeconds: 60 },
      { allowed: true, remaining: 0, resetSeconds: 60 },
      { allowed: false, retryAfterSeconds: 60 },
    ]);
  });

  it('tells what is left of the window: requests, and whole seconds until it resets (at least 1)', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 3, now: clock.now });
    // Act
    const first = limiter.take('k');
    clock.advance(42_300);
    const second = limiter.take('k');
    clock.advance(17_650);
    const third = limiter.take('k');
    // Assess
    expect(first).toEqual({ allowed: true, remaining: 2, resetSeconds: 60 });
    expect(second).toEqual({ allowed: true, remaining: 1, resetSeconds: 18 });
    expect(third).toEqual({ allowed: true, remaining: 0, resetSeconds: 1 });
  });

  it('never answers a Retry-After below one second', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000, now: clock.now });
    limiter.take('k');
    clock.advance(999);
    // Act
    const refused = limiter.take('k');
    // Assess
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('forgets expired windows, so memory follows the keys seen in the last window', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 1, now: clock.now });
    for (let i = 0; i < 1_000; i += 1) limiter.take(`old-${i}`);
    clock.advance(30_000);
    limiter.take('recent');
    clock.advance(30_000);
    // Act: the old windows are over, the recent one is not
    limiter.take('new');
    // Assess
    expect(limiter.size).toBe(2);
    expect(limiter.take('recent').allowed).toBe(false);
    expect(limiter.take('old-1').allowed).toBe(true);
  });

  it('keeps at most maxKeys windows, forgetting the oldest (which is then let through, not refused)', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 1, now: clock.now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) {
      limiter.take(key);
      clock.advance(1);
    }
    // Act
    limiter.take('d');
    // Assess
    expect(limiter.size).toBe(3);
    expect(limiter.take('b').allowed).toBe(false);
    expect(limiter.take('a').allowed).toBe(true);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => createRateLimiter({ limit: 0 })).toThrow('positive integer');
    expect(() => createRateLimiter({ limit: Number.NaN })).toThrow('positive integer');
  });
});

describe('rateLimitKey', () => {
  const key = 'dsk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';

  it.each([
    ['Bearer <key>', `Bearer ${key}`],
    ['bearer <key>', `bearer ${key}`],
    ['BEARER <key>', `BEARER ${key}`],
    ['two spaces after the scheme', `Bearer  ${key}`],
    ['a tab after the scheme', `Bearer\t${key}`],
    ['white space around the value', ` Bearer ${key} `],
  ])('is the key itself for %s', (_, authorization) => {
    // Act / Assess
    expect(rateLimitKey(authorization)).toBe(rateLimitKey(`Bearer ${key}`));
  });

  it('keeps the key as it is: keys that differ in case are two keys', () => {
    // Act / Assess
    expect(rateLimitKey(`Bearer ${key}`)).not.toBe(rateLimitKey(`Bearer ${key.toLowerCase()}`));
  });

  it('folds a header without a bearer token as the WAF rule folds it, apart from any key', () => {
    // Act / Assess
    expect(rateLimitKey(`Basic  ${key}`)).toBe(rateLimitKey(`basic ${key.toLowerCase()}`));
    expect(rateLimitKey(key)).not.toBe(rateLimitKey(`Bearer ${key}`));
    expect(rateLimitKey(`Bearer ${key} ${key}`)).not.toBe(rateLimitKey(`Bearer ${key}`));
  });

  it('lets both spellings of a key spend one budget', () => {
    // Prepare
    const clock = fakeClock();
    const limiter = createRateLimiter({ limit: 3, now: clock.now });
    // Act
    const decisions = [`bearer ${key}`, `Bearer  ${key}`, `Bearer ${key}`, `BEARER\t${key}`].map((header) =>
      limiter.take(rateLimitKey(header)),
    );
    // Assess
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    expect(limiter.size).toBe(1);
  });
});
