/**
 * mulberry32: a tiny seeded PRNG, so a harness given a seed draws the same delays and cancellations in the same
 * order. The interleaving of concurrent requests still depends on timing, so a seed makes a run repeatable in
 * its draws, not in every detail.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A whole number of milliseconds in [low, high]. */
export const between = (random: Random, [low, high]: readonly [number, number]): number =>
  Math.round(low + random() * (high - low));
