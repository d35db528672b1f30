/** What the webhooks section's measurements share: its settings, spreads, pauses, and the owners they write for. */
import { setTimeout as sleep } from 'node:timers/promises';
import { median, percentile, round } from '#bench/support.ts';
import type { Receiver } from '#bench/webhooks/receiver.ts';

/** The follower's poll of the feed heads, as infra/local/start.ts sets it (`intervalMs`). */
export const FEED_INTERVAL_MS = 500;
/** A write's deliveries not in within this long count as lost. */
export const GIVE_UP_MS = 5_000;

export type WebhookSpread = { median: number; p95: number; min: number; max: number; n: number };

export const spreadOf = (values: readonly number[], digits = 1): WebhookSpread => ({
  median: round(median(values), digits),
  p95: round(percentile(values, 95), digits),
  min: round(Math.min(...values), digits),
  max: round(Math.max(...values), digits),
  n: values.length,
});

/** An owner with its key and its webhooks' receivers. */
export type Owner = { label: string; owner: string; key: string; receivers: Receiver[] };

/** A space written for an owner: the write's latency, when its 201 was read (performance.now()), the space's id. */
export type Write = { owner: Owner; writeMs: number; answeredAt: number; spaceId: number };

/** What the section sets up for its measurements: owners with webhooks, and a space written through the API. */
export type WebhookBench = {
  ownerWith: (label: string, endpoints: number, failFirst?: number) => Promise<Owner>;
  writeSpace: (owner: Owner, name: string) => Promise<Write>;
  /** Deliveries in flight in the stack's worker. */
  pending: () => number;
  /** When the follower handed an owner's event to the worker (performance.now()). */
  handedAt: (owner: string, eventId: number) => number | undefined;
};

/**
 * Pauses of 0 to `spanMs`, one in each of `count` equal slices of that range, shuffled: the writes after them
 * fall evenly over the follower's poll even over few rounds (a plain random pause leaves the median of 40 lags
 * some 40 ms either way by chance alone).
 */
export function stratifiedPauses(count: number, spanMs: number): number[] {
  const pauses = Array.from({ length: count }, (_, index) => ((index + Math.random()) / count) * spanMs);
  for (let index = pauses.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [pauses[index], pauses[other]] = [pauses[other] as number, pauses[index] as number];
  }
  return pauses;
}

export async function waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(2);
  }
  return true;
}
