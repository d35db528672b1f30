/** The one retry helper (lib/platform/retry.ts): a step tried until done, waiting as its policy says, giving up in time. */
import { describe, expect, it } from 'vitest';
import { again, fullJitter, noWait, retrying } from '#lib/platform/retry.ts';

describe('retrying', () => {
  it('returns the first answer that is not `again`, counting attempts from 1', async () => {
    // Prepare
    const seen: number[] = [];
    // Act
    const result = await retrying(
      { attempts: 5, delayMs: noWait },
      async (attempt) => {
        seen.push(attempt);
        return attempt < 3 ? again : `done at ${attempt}`;
      },
      () => new Error('exhausted'),
    );
    // Assess
    expect(result).toBe('done at 3');
    expect(seen).toEqual([1, 2, 3]);
  });

  it('gives up after the policy’s attempts with the error it makes', async () => {
    // Act
    const run = retrying(
      { attempts: 3, delayMs: noWait },
      async () => again,
      () => new Error('three times'),
    );
    // Assess
    await expect(run).rejects.toThrow('three times');
  });

  it('gives up before a wait that would run past its budget, without sleeping it', async () => {
    // Prepare
    const started = Date.now();
    let attempts = 0;
    // Act
    const run = retrying(
      { budgetMs: 100, delayMs: () => 60 },
      async () => {
        attempts++;
        return again;
      },
      () => new Error('budget'),
    );
    // Assess: one wait of 60 ms fits, the second would end at 120 ms
    await expect(run).rejects.toThrow('budget');
    expect(attempts).toBe(2);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('lets a step’s own error through at once', async () => {
    // Act / Assess
    await expect(
      retrying(
        { attempts: 5, delayMs: noWait },
        async () => {
          throw new Error('not retried');
        },
        () => new Error('exhausted'),
      ),
    ).rejects.toThrow('not retried');
  });
});

describe('fullJitter', () => {
  it('waits below base · 2^(retry − 1), never over the cap', () => {
    // Prepare
    const delay = fullJitter(10, 50);
    // Act
    const waits = Array.from({ length: 200 }, (_, index) => [(index % 5) + 1, delay((index % 5) + 1)] as const);
    // Assess
    for (const [retry, wait] of waits) {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThan(Math.min(50, 10 * 2 ** (retry - 1)));
    }
  });
});
