/**
 * Seeds for the tests that draw at random: every draw comes from a seeded generator, and the seed is printed
 * (vitest shows a test's output when it fails) and named in the assertion messages, so a failing run can be
 * replayed with `TEST_SEED=<seed> npx vitest run <file>`. A random test still asserts on what its draws
 * produced, never on a count that chance decides.
 */
import { type Random, seededRandom } from './harness/random.ts';

export type Seeded = {
  seed: number;
  random: Random;
  /** A value of the list, drawn. */
  pick<T>(values: readonly T[]): T;
  /** An integer in [min, max], drawn. */
  integer(min: number, max: number): number;
  /** `what (seed N)`: for assertion messages. */
  label(what: string): string;
};

/** The seed of this run: `TEST_SEED`, or a new one. */
export function testSeed(): number {
  const given = process.env.TEST_SEED;
  if (given !== undefined && /^\d+$/.test(given)) return Number(given) >>> 0;
  return Math.floor(Math.random() * 2 ** 32);
}

/** A seeded generator for one test, its seed printed under `name`. */
export function seeded(name: string, seed = testSeed()): Seeded {
  console.info(`${name}: seed ${seed} (replay with TEST_SEED=${seed})`);
  const random = seededRandom(seed);
  return {
    seed,
    random,
    pick: <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T,
    integer: (min, max) => min + Math.floor(random() * (max - min + 1)),
    label: (what) => `${what} (seed ${seed})`,
  };
}
