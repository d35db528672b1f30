/**
 * The delivery lag and the write latency, from the same writes: each round writes once for each of three owners
 * (0, 1 and 20 webhooks) in rotated order, each write after a pause of up to one poll of the follower
 * (stratified: each owner's pauses cover that range evenly) and only once the previous write's deliveries are
 * done and the worker is idle, so that every write meets the same quiet stack. The lag runs from the API's 201
 * to `POST /api/v1/spaces` to the receiver answering the delivery 2xx, split where the follower hands the event
 * to the worker.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { progress, quick } from '#bench/support.ts';
import {
  FEED_INTERVAL_MS,
  GIVE_UP_MS,
  type Owner,
  spreadOf,
  stratifiedPauses,
  type WebhookBench,
  type WebhookSpread,
  type Write,
  waitFor,
} from '#bench/webhooks/common.ts';
import { badSignaturesOf, duplicatesOf } from '#bench/webhooks/receiver.ts';

/** The endpoints of the fan-out case (above the default per-owner quota of 10: the bench raises it). */
export const ENDPOINTS = 20;
/** Rounds of three writes (0, 1 and 20 endpoints), the first few unmeasured. */
export const WARM_UP = quick ? 1 : 3;
export const ROUNDS = quick ? 6 : 40;

export type WebhookLagCase = {
  endpoints: number;
  writes: number;
  /** Deliveries expected (writes × endpoints), verified 2xx within the give-up time, and the others. */
  expected: number;
  delivered: number;
  lost: number;
  /** Deliveries whose signature `standardwebhooks` refused (answered 401, counted as lost). */
  badSignatures: number;
  /** More than one verified 2xx for one event at one endpoint (at-least-once allows it). */
  duplicates: number;
  /** From the 201 to the receiver answering 2xx, every delivery, ms. */
  lagMs: WebhookSpread;
  /** Per write, from the 201 to the last of its endpoints answering 2xx, ms. */
  lastOfWriteMs: WebhookSpread;
  /** From the 201 to the follower handing the event to the worker (the wait for its poll, then the poll), ms. */
  pickupMs: WebhookSpread;
  /** From that hand-over to the receiver answering 2xx (fan-out, the webhook read, the signed POST), ms. */
  deliverMs: WebhookSpread;
};

export type WebhookWriteCase = { endpoints: number; writes: number; latencyMs: WebhookSpread };

export async function deliveryLag(bench: WebhookBench): Promise<{ lag: WebhookLagCase[]; writes: WebhookWriteCase[] }> {
  const none = await bench.ownerWith('none', 0);
  const one = await bench.ownerWith('one', 1);
  const twenty = await bench.ownerWith('twenty', ENDPOINTS);
  const owners = [none, one, twenty];

  progress(
    `webhooks: ${ROUNDS} rounds (+${WARM_UP} unmeasured) of a write for 0, 1 and ${ENDPOINTS} endpoints, each after a stratified pause of 0-${FEED_INTERVAL_MS} ms`,
  );
  const writes: (Write & { measured: boolean })[] = [];
  const pauses = new Map(owners.map((owner) => [owner, stratifiedPauses(ROUNDS, FEED_INTERVAL_MS)]));
  for (let r = 0; r < WARM_UP + ROUNDS; r++) {
    for (let k = 0; k < owners.length; k++) {
      const owner = owners[(k + r) % owners.length] as Owner;
      // A phase against the follower's poll: random while warming up, then the owner's next stratified pause.
      await sleep(r < WARM_UP ? Math.random() * FEED_INTERVAL_MS : (pauses.get(owner)?.[r - WARM_UP] ?? 0));
      const write = await bench.writeSpace(owner, `Round ${r} ${owner.label}`);
      writes.push({ ...write, measured: r >= WARM_UP });
      await waitFor(
        () => owner.receivers.every((receiver) => receiver.deliveredAt(write.spaceId) !== undefined),
        GIVE_UP_MS,
      );
      // The attempts record themselves after the answer: the next write waits for an idle worker.
      await waitFor(() => bench.pending() === 0, GIVE_UP_MS);
    }
  }
  const measured = writes.filter((write) => write.measured);

  const lagCase = (owner: Owner): WebhookLagCase => {
    const own = measured.filter((write) => write.owner === owner);
    const lags: number[] = [];
    const lasts: number[] = [];
    const pickups: number[] = [];
    const delivers: number[] = [];
    const arrivals = owner.receivers.flatMap((receiver) => receiver.arrivals);
    for (const write of own) {
      const times = owner.receivers
        .map((receiver) => receiver.deliveredAt(write.spaceId))
        .filter((at): at is number => at !== undefined && at - write.answeredAt <= GIVE_UP_MS);
      for (const at of times) lags.push(at - write.answeredAt);
      if (times.length === owner.receivers.length) lasts.push(Math.max(...times) - write.answeredAt);
      const eventId = arrivals.find((arrival) => arrival.spaceId === write.spaceId)?.eventId;
      const handed = eventId === undefined ? undefined : bench.handedAt(owner.owner, eventId);
      if (handed === undefined) continue;
      pickups.push(handed - write.answeredAt);
      for (const at of times) delivers.push(at - handed);
    }
    const expected = own.length * owner.receivers.length;
    const spaces = new Set(own.map((write) => write.spaceId));
    const ownArrivals = arrivals.filter((arrival) => spaces.has(arrival.spaceId));
    return {
      endpoints: owner.receivers.length,
      writes: own.length,
      expected,
      delivered: lags.length,
      lost: expected - lags.length,
      badSignatures: badSignaturesOf(ownArrivals),
      duplicates: duplicatesOf(ownArrivals),
      lagMs: spreadOf(lags),
      lastOfWriteMs: spreadOf(lasts),
      pickupMs: spreadOf(pickups),
      deliverMs: spreadOf(delivers),
    };
  };
  const lag = [lagCase(one), lagCase(twenty)];
  const writeCases = owners.map((owner) => {
    const own = measured.filter((write) => write.owner === owner).map((write) => write.writeMs);
    return { endpoints: owner.receivers.length, writes: own.length, latencyMs: spreadOf(own, 2) };
  });
  for (const c of lag) {
    progress(
      `webhooks: ${c.endpoints} endpoint(s): lag median ${c.lagMs.median} ms, p95 ${c.lagMs.p95} ms; ${c.lost} lost of ${c.expected}`,
    );
  }
  const [noneWrites, , twentyWrites] = writeCases as [WebhookWriteCase, WebhookWriteCase, WebhookWriteCase];
  progress(
    `webhooks: write latency median ${noneWrites.latencyMs.median} ms (0 endpoints), ${twentyWrites.latencyMs.median} ms (${ENDPOINTS})`,
  );
  return { lag, writes: writeCases };
}
