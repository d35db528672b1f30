/**
 * The contention benchmark's verdict (`checkFeed` in bench/support.ts): a feed read from its start against the
 * writes answered as successful. A checker that passes a broken feed would publish "0 lost" for nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkFeed, percentile } from '#bench/support.ts';

/** Events 1..n reporting the given changes in order. */
const feed = (...changes: string[]) => changes.map((change, index) => ({ id: index + 1, change }));

describe('checkFeed', () => {
  it('passes a feed with exactly one event per successful write, ids 1..n', () => {
    // Act
    const check = checkFeed(feed('1@1', '2@1', '1@2'), ['1@2', '1@1', '2@1']);
    // Assess
    expect(check).toEqual({ events: 3, expected: 3, gaps: 0, lost: 0, duplicated: 0, gapless: true });
  });

  it('counts a successful write without its event as lost, and the hole it leaves as a gap', () => {
    // Prepare
    const events = feed('1@1', '1@2', '1@3').filter((event) => event.id !== 2);
    // Act
    const check = checkFeed(events, ['1@1', '1@2', '1@3']);
    // Assess
    expect(check).toMatchObject({ events: 2, expected: 3, gaps: 1, lost: 1, duplicated: 0, gapless: false });
  });

  it('counts an event no successful write accounts for as duplicated: a write twice, or a 503 that wrote', () => {
    // Act
    const twice = checkFeed(feed('1@1', '1@2', '1@2'), ['1@1', '1@2']);
    const wroteAnyway = checkFeed(feed('1@1', '3@1'), ['1@1']);
    // Assess
    expect(twice).toMatchObject({ lost: 0, duplicated: 1, gapless: true });
    expect(wroteAnyway).toMatchObject({ lost: 0, duplicated: 1, gapless: true });
  });

  it('sees a lost write hidden behind a duplicated one, though the counts agree', () => {
    // Act
    const check = checkFeed(feed('1@1', '1@1'), ['1@1', '2@1']);
    // Assess
    expect(check).toMatchObject({ events: 2, expected: 2, lost: 1, duplicated: 1 });
  });

  it('refuses ids that repeat or do not start at 1', () => {
    // Act
    const repeated = checkFeed(
      [
        { id: 1, change: '1@1' },
        { id: 1, change: '1@2' },
      ],
      ['1@1', '1@2'],
    );
    const shifted = checkFeed([{ id: 2, change: '1@1' }], ['1@1']);
    // Assess
    expect(repeated.gapless).toBe(false);
    expect(shifted).toMatchObject({ gaps: 1, gapless: false, lost: 0 });
  });

  it('passes an empty feed when nothing was written', () => {
    expect(checkFeed([], [])).toEqual({ events: 0, expected: 0, gaps: 0, lost: 0, duplicated: 0, gapless: true });
  });
});

describe('percentile (nearest rank)', () => {
  it('takes the value at rank ceil(p/100 · n) of the sorted values', () => {
    // Prepare
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    // Act, Assess
    expect(percentile(values, 50)).toBe(5);
    expect(percentile(values, 99)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
