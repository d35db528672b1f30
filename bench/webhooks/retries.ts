/**
 * Retries: a receiver that fails the first 2 attempts of each event (500) with WEBHOOK_RETRY_DELAYS=1s,1s,1s;
 * events written back to back, every one to be delivered (0 lost), and the time until the last delivery.
 */
import { progress, quick, round } from '#bench/support.ts';
import type { Write } from '#bench/webhooks/common.ts';
import {
  FEED_INTERVAL_MS,
  GIVE_UP_MS,
  spreadOf,
  type WebhookBench,
  type WebhookSpread,
  waitFor,
} from '#bench/webhooks/common.ts';
import { type Arrival, badSignaturesOf, duplicatesOf, type Receiver } from '#bench/webhooks/receiver.ts';
import { JITTER_RATIO, retryScheduleOf } from '#lib/webhooks/rules/schedule.ts';

/** The schedule, how many attempts of each event the receiver fails, and how many events. */
export const RETRY_DELAYS = '1s,1s,1s';
const FAIL_FIRST = 2;
const RETRY_EVENTS = quick ? 5 : 20;

export type Retries = {
  delays: string;
  /** The schedule's delays in ms, and the jitter applied to each (±). */
  delaysMs: number[];
  jitterRatio: number;
  failFirst: number;
  events: number;
  delivered: number;
  lost: number;
  badSignatures: number;
  duplicates: number;
  /** Requests the receiver was sent, and per event (a 2xx ends an event's attempts). */
  attempts: number;
  attemptsPerEvent: number[];
  /** From the first write's start to the last write's 201, ms. */
  writeSpanMs: number;
  /** From the 201 to the first attempt, every event, ms. */
  firstAttemptMs: WebhookSpread;
  /** Between an event's attempts: the first and the second, the second and the third, ms. */
  retryGapMs: WebhookSpread[];
  /** From the first write's 201, and from the last write's 201, to the last delivery, ms. */
  lastDeliveryAfterFirstWriteMs: number;
  lastDeliveryAfterLastWriteMs: number;
  /** From each event's 201 to its delivery, ms. */
  deliveredAfterWriteMs: WebhookSpread;
  /**
   * The schedule's part of an event's wait, ms: the failed attempts' delays at their shortest jitter, and a whole
   * poll of the follower plus the delays at their longest. The attempts' own time comes on top.
   */
  scheduleMs: { min: number; max: number };
};

export async function retries(bench: WebhookBench): Promise<Retries> {
  const failing = await bench.ownerWith('retry', 1, FAIL_FIRST);
  const receiver = failing.receivers[0] as Receiver;
  progress(`webhooks: ${RETRY_EVENTS} events to a receiver failing the first ${FAIL_FIRST} attempts of each`);
  const schedule = retryScheduleOf(RETRY_DELAYS);
  const retryWrites: Write[] = [];
  const retryStart = performance.now();
  for (let index = 1; index <= RETRY_EVENTS; index++)
    retryWrites.push(await bench.writeSpace(failing, `Retry ${index}`));
  const first = retryWrites[0] as Write;
  const last = retryWrites.at(-1) as Write;
  const delays = schedule.slice(0, FAIL_FIRST).reduce((sum, delay) => sum + delay, 0);
  const scheduleMs = {
    min: round(delays * (1 - JITTER_RATIO), 0),
    max: round(FEED_INTERVAL_MS + delays * (1 + JITTER_RATIO), 0),
  };
  await waitFor(
    () => retryWrites.every((write) => receiver.deliveredAt(write.spaceId) !== undefined),
    scheduleMs.max + GIVE_UP_MS,
  );
  await waitFor(() => bench.pending() === 0, GIVE_UP_MS);
  const deliveredTimes = retryWrites
    .map((write) => receiver.deliveredAt(write.spaceId))
    .filter((at): at is number => at !== undefined);
  const lastDelivery = Math.max(...deliveredTimes);
  const bySpace = new Map<number, Arrival[]>();
  for (const arrival of receiver.arrivals)
    bySpace.set(arrival.spaceId, [...(bySpace.get(arrival.spaceId) ?? []), arrival]);
  const attemptsPerEvent = retryWrites.map((write) => bySpace.get(write.spaceId)?.length ?? 0);
  const firstAttempts = retryWrites.flatMap((write) => {
    const at = bySpace.get(write.spaceId)?.[0]?.at;
    return at === undefined ? [] : [at - write.answeredAt];
  });
  const gaps = Array.from({ length: FAIL_FIRST }, (_, index) =>
    spreadOf(
      retryWrites.flatMap((write) => {
        const list = bySpace.get(write.spaceId) ?? [];
        const [a, b] = [list[index], list[index + 1]];
        return a && b ? [b.at - a.at] : [];
      }),
      0,
    ),
  );
  const retry: Retries = {
    delays: RETRY_DELAYS,
    delaysMs: [...schedule],
    jitterRatio: JITTER_RATIO,
    failFirst: FAIL_FIRST,
    events: RETRY_EVENTS,
    delivered: deliveredTimes.length,
    lost: RETRY_EVENTS - deliveredTimes.length,
    badSignatures: badSignaturesOf(receiver.arrivals, FAIL_FIRST),
    duplicates: duplicatesOf(receiver.arrivals),
    attempts: receiver.arrivals.length,
    attemptsPerEvent: [...new Set(attemptsPerEvent)].sort((a, b) => a - b),
    writeSpanMs: round(last.answeredAt - retryStart, 0),
    firstAttemptMs: spreadOf(firstAttempts, 0),
    retryGapMs: gaps,
    lastDeliveryAfterFirstWriteMs: round(lastDelivery - first.answeredAt, 0),
    lastDeliveryAfterLastWriteMs: round(lastDelivery - last.answeredAt, 0),
    deliveredAfterWriteMs: spreadOf(
      retryWrites.flatMap((write) => {
        const at = receiver.deliveredAt(write.spaceId);
        return at === undefined ? [] : [at - write.answeredAt];
      }),
      0,
    ),
    scheduleMs,
  };
  progress(
    `webhooks: retries: ${retry.delivered} delivered, ${retry.lost} lost of ${retry.events}; last delivery ${retry.lastDeliveryAfterLastWriteMs} ms after the last write`,
  );
  return retry;
}
