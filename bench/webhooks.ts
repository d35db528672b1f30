/**
 * Section 9, webhooks, on the local stack as `npm start` composes it (infra/local/start.ts), in this process:
 * the local gateway, the webhook worker (`startWebhookWorker`, infra/local/webhook-worker.ts) and the follower of
 * the change feed handing it every event (`followChanges`, infra/local/edge-feed.ts, polling every 500 ms), over
 * this run's DynamoDB Local and a table of its own (the follower queries its feed-change index). Receivers are HTTP servers on
 * 127.0.0.1 in this process, each verifying every delivery's signature with the `standardwebhooks` package: a
 * delivery whose signature does not verify is answered 401 and counts as lost. Three measurements:
 *  - the delivery lag, from the API's 201 to `POST /api/v1/spaces` to the receiver answering the delivery 2xx,
 *    for an owner with 1 webhook and an owner with 20 (all subscribed to `space.*`, each its own receiver);
 *  - the write latency of that `POST` with 0, 1 and 20 webhooks subscribed, from the same writes: each round
 *    writes once for each of three owners (0, 1 and 20 webhooks) in rotated order, each write after a pause of
 *    up to one poll of the follower (stratified: each owner's pauses cover that range evenly) and only once the
 *    previous write's deliveries are done and the worker is idle, so that every write meets the same quiet stack;
 *  - a receiver that fails the first 2 attempts of each event (500) with WEBHOOK_RETRY_DELAYS=1s,1s,1s: events
 *    written back to back, every one to be delivered (0 lost), and the time until the last delivery.
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME (a table of its own), CURSOR_SECRET and EDGE_HOSTNAME.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { followChanges } from '#infra/local/edge-feed.ts';
import { startGateway } from '#infra/local/gateway.ts';
import { startWebhookWorker } from '#infra/local/webhook-worker.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { JITTER_RATIO, retryScheduleOf } from '#lib/webhooks/rules/schedule.ts';
import { loadWebhookConfig } from '#lib/webhooks/settings.ts';
import { median, percentile, progress, quick, round, writeResult } from './support.ts';

/** The follower's poll of the feed heads, as infra/local/start.ts sets it (`intervalMs`). */
const FEED_INTERVAL_MS = 500;
/** The local stack's authorizer cache (`AUTH_CACHE_TTL_SECONDS`, default 60). */
const AUTH_CACHE_TTL_SECONDS = 60;
/** The endpoints of the fan-out case (above the default per-owner quota of 10: the bench raises it). */
const ENDPOINTS = 20;
/** Rounds of three writes (0, 1 and 20 endpoints), the first few unmeasured. */
const WARM_UP = quick ? 1 : 3;
const ROUNDS = quick ? 6 : 40;
/** A write's deliveries not in within this long count as lost. */
const GIVE_UP_MS = 5_000;
/** The retries: the schedule, how many attempts of each event the receiver fails, and how many events. */
const RETRY_DELAYS = '1s,1s,1s';
const FAIL_FIRST = 2;
const RETRY_EVENTS = quick ? 5 : 20;
/** The promise for the local stack: a delivery within about a second of the write (checked on the p95). */
const LAG_BOUND_MS = 1_000;
/** What "the write latency does not change" is held to: 20 endpoints over 0, medians of the same run. */
const WRITE_RATIO_TARGET = 1.2;

export type WebhookSpread = { median: number; p95: number; min: number; max: number; n: number };

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

export type WebhooksSection = {
  node: string;
  feedIntervalMs: number;
  pauseMaxMs: number;
  giveUpMs: number;
  lagBoundMs: number;
  writeRatioTarget: number;
  authCacheTtlSeconds: number;
  /** The per-owner quota of webhooks the bench runs with (`MAX_WEBHOOKS_PER_OWNER`). */
  maxWebhooksPerOwner: number;
  warmUpRounds: number;
  rounds: number;
  lag: WebhookLagCase[];
  writes: WebhookWriteCase[];
  /** The write latency with 20 endpoints over 0, same run: medians, and p95s. */
  writeRatio: { median: number; p95: number };
  retry: {
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
  loadAverage: number[];
  loadAverageAfter: number[];
  durationSeconds: number;
};

const spreadOf = (values: readonly number[], digits = 1): WebhookSpread => ({
  median: round(median(values), digits),
  p95: round(percentile(values, 95), digits),
  min: round(Math.min(...values), digits),
  max: round(Math.max(...values), digits),
  n: values.length,
});

// ---------- the receivers ----------

/** One request a receiver was sent: when it answered (performance.now()), what, and for which event. */
type Arrival = {
  messageId: string;
  eventId: number;
  /** The space the event is about (its `data.id`). */
  spaceId: number;
  /** The receiver's count of requests for this message id, from 1. */
  attempt: number;
  status: number;
  verified: boolean;
  at: number;
};

type Receiver = {
  url: string;
  /** The webhook's signing secret, once the webhook is stored. */
  secret: string;
  arrivals: Arrival[];
  /** The first verified 2xx for the space's event. */
  deliveredAt: (spaceId: number) => number | undefined;
  close: () => Promise<void>;
};

/** A receiver on 127.0.0.1: fails the first `failFirst` attempts of each message (500), then verifies and answers. */
async function startReceiver(failFirst = 0): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const attempts = new Map<string, number>();
  const delivered = new Map<number, number>();
  let verifier: Webhook | undefined;
  const receiver: Receiver = {
    url: '',
    secret: '',
    arrivals,
    deliveredAt: (spaceId) => delivered.get(spaceId),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const onRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const messageId = String(request.headers['webhook-id'] ?? '');
    const attempt = (attempts.get(messageId) ?? 0) + 1;
    attempts.set(messageId, attempt);
    let verified = false;
    if (attempt > failFirst) {
      try {
        verifier ??= new Webhook(receiver.secret);
        verifier.verify(body, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
    }
    const status = attempt <= failFirst ? 500 : verified ? 204 : 401;
    const at = performance.now();
    // What verified is the event as listed; anything else is kept as an arrival about no space.
    let event = { id: Number.NaN, spaceId: Number.NaN };
    try {
      const parsed = JSON.parse(body) as { id: string; data: { id: number } };
      event = { id: Number(parsed.id), spaceId: Number(parsed.data.id) };
    } catch {}
    arrivals.push({ messageId, eventId: event.id, spaceId: event.spaceId, attempt, status, verified, at });
    if (verified && !delivered.has(event.spaceId)) delivered.set(event.spaceId, at);
    response.writeHead(status).end();
  };
  const server: Server = createServer((request, response) => void onRequest(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
  receiver.url = `http://127.0.0.1:${address.port}/hook`;
  return receiver;
}

/** Verified 2xx answers beyond the first for one message. */
const duplicatesOf = (arrivals: readonly Arrival[]) => {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const arrival of arrivals) {
    if (!arrival.verified) continue;
    if (seen.has(arrival.messageId)) duplicates++;
    seen.add(arrival.messageId);
  }
  return duplicates;
};

/** Answers past the failures meant to happen whose signature did not verify. */
const badSignaturesOf = (arrivals: readonly Arrival[], failFirst = 0) =>
  arrivals.filter((arrival) => arrival.attempt > failFirst && !arrival.verified).length;

/**
 * Pauses of 0 to `spanMs`, one in each of `count` equal slices of that range, shuffled: the writes after them
 * fall evenly over the follower's poll even over few rounds (a plain random pause leaves the median of 40 lags
 * some 40 ms either way by chance alone).
 */
function stratifiedPauses(count: number, spanMs: number): number[] {
  const pauses = Array.from({ length: count }, (_, index) => ((index + Math.random()) / count) * spanMs);
  for (let index = pauses.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [pauses[index], pauses[other]] = [pauses[other] as number, pauses[index] as number];
  }
  return pauses;
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(2);
  }
  return true;
}

// ---------- the API ----------

type Owner = { label: string; owner: string; key: string; receivers: Receiver[] };

type Write = { owner: Owner; measured: boolean; writeMs: number; answeredAt: number; spaceId: number };

function apiClient(origin: string) {
  return async (key: string, path: string, body: { form?: Record<string, string>; json?: unknown }) => {
    const response = await fetch(`${origin}/api/v1${path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${key}`,
        'content-type': body.form ? 'application/x-www-form-urlencoded' : 'application/json',
      },
      body: body.form ? new URLSearchParams(body.form).toString() : JSON.stringify(body.json),
    });
    const text = await response.text();
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 300)}`);
    return (JSON.parse(text) as { data: Record<string, unknown> }).data;
  };
}

async function main() {
  const started = Date.now();
  const loadAverage = loadavg().map((value) => round(value, 2));
  // The functions' settings as infra/local/start.ts loads them (the shared ones and the webhooks' own).
  const config = loadWebhookConfig({
    ...process.env,
    WEBHOOK_RETRY_DELAYS: RETRY_DELAYS,
    // As `npm start` sets it: the receivers are on this machine, over http://.
    WEBHOOK_LOCAL_LOOPBACK: 'true',
    MAX_WEBHOOKS_PER_OWNER: String(ENDPOINTS),
  });
  const db = createDb(config);
  const gateway = await startGateway({
    config,
    db,
    host: '127.0.0.1',
    port: 0,
    authCacheTtlSeconds: AUTH_CACHE_TTL_SECONDS,
    rateLimitPerMinute: 0,
    logRequests: false,
  });
  const errors: string[] = [];
  const log = (entry: Record<string, unknown>) => {
    if (entry.level === 'error') errors.push(JSON.stringify(entry));
  };
  // As infra/local/start.ts wires them (no edge: these writes are spaces, the edge syncs domains only), with the
  // moment the follower hands each event over noted on the way.
  const worker = startWebhookWorker({ db, config, log });
  const handedAt = new Map<string, number>();
  const follower = followChanges({
    db,
    onEvent: (owner, event) => {
      handedAt.set(`${owner}/${event.id}`, performance.now());
      return worker.onEvent(owner, event);
    },
    onPosition: worker.onPosition,
    intervalMs: FEED_INTERVAL_MS,
    log,
  });
  const post = apiClient(gateway.url);
  const receivers: Receiver[] = [];
  const run = Math.random().toString(36).slice(2, 8);

  async function ownerWith(label: string, endpoints: number, failFirst = 0): Promise<Owner> {
    const owner = `bench-webhooks-${label}-${run}`;
    const { key } = await createApiKey(db, owner, 'benchmark');
    const own: Receiver[] = [];
    for (let index = 0; index < endpoints; index++) {
      const receiver = await startReceiver(failFirst);
      receivers.push(receiver);
      const webhook = await post(key, '/webhooks', {
        json: { url: receiver.url, events: ['space.*'], description: `bench ${label} ${index + 1}` },
      });
      receiver.secret = String(webhook.secret);
      own.push(receiver);
    }
    return { label, owner, key, receivers: own };
  }

  async function writeSpace(owner: Owner, name: string): Promise<Omit<Write, 'measured'>> {
    const start = performance.now();
    const space = await post(owner.key, '/spaces', { form: { name } });
    const answeredAt = performance.now();
    return { owner, writeMs: answeredAt - start, answeredAt, spaceId: Number(space.id) };
  }

  try {
    const none = await ownerWith('none', 0);
    const one = await ownerWith('one', 1);
    const twenty = await ownerWith('twenty', ENDPOINTS);
    const owners = [none, one, twenty];

    // ---------- lag and write latency: rounds of three writes, rotated ----------
    progress(
      `webhooks: ${ROUNDS} rounds (+${WARM_UP} unmeasured) of a write for 0, 1 and ${ENDPOINTS} endpoints, each after a stratified pause of 0-${FEED_INTERVAL_MS} ms`,
    );
    const writes: Write[] = [];
    const pauses = new Map(owners.map((owner) => [owner, stratifiedPauses(ROUNDS, FEED_INTERVAL_MS)]));
    for (let r = 0; r < WARM_UP + ROUNDS; r++) {
      for (let k = 0; k < owners.length; k++) {
        const owner = owners[(k + r) % owners.length] as Owner;
        // A phase against the follower's poll: random while warming up, then the owner's next stratified pause.
        await sleep(r < WARM_UP ? Math.random() * FEED_INTERVAL_MS : (pauses.get(owner)?.[r - WARM_UP] ?? 0));
        const write = await writeSpace(owner, `Round ${r} ${owner.label}`);
        writes.push({ ...write, measured: r >= WARM_UP });
        await waitFor(
          () => owner.receivers.every((receiver) => receiver.deliveredAt(write.spaceId) !== undefined),
          GIVE_UP_MS,
        );
        // The attempts record themselves after the answer: the next write waits for an idle worker.
        await waitFor(() => worker.pending() === 0, GIVE_UP_MS);
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
        const handed = handedAt.get(`${owner.owner}/${eventId}`);
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
    const [noneWrites, , twentyWrites] = writeCases as [WebhookWriteCase, WebhookWriteCase, WebhookWriteCase];
    for (const c of lag) {
      progress(
        `webhooks: ${c.endpoints} endpoint(s): lag median ${c.lagMs.median} ms, p95 ${c.lagMs.p95} ms; ${c.lost} lost of ${c.expected}`,
      );
    }
    progress(
      `webhooks: write latency median ${noneWrites.latencyMs.median} ms (0 endpoints), ${twentyWrites.latencyMs.median} ms (${ENDPOINTS})`,
    );

    // ---------- retries: a receiver failing the first attempts of every event ----------
    const failing = await ownerWith('retry', 1, FAIL_FIRST);
    const receiver = failing.receivers[0] as Receiver;
    progress(`webhooks: ${RETRY_EVENTS} events to a receiver failing the first ${FAIL_FIRST} attempts of each`);
    const schedule = retryScheduleOf(RETRY_DELAYS);
    const retryWrites: Omit<Write, 'measured'>[] = [];
    const retryStart = performance.now();
    for (let index = 1; index <= RETRY_EVENTS; index++) retryWrites.push(await writeSpace(failing, `Retry ${index}`));
    const first = retryWrites[0] as Omit<Write, 'measured'>;
    const last = retryWrites.at(-1) as Omit<Write, 'measured'>;
    const delays = schedule.slice(0, FAIL_FIRST).reduce((sum, delay) => sum + delay, 0);
    const scheduleMs = {
      min: round(delays * (1 - JITTER_RATIO), 0),
      max: round(FEED_INTERVAL_MS + delays * (1 + JITTER_RATIO), 0),
    };
    await waitFor(
      () => retryWrites.every((write) => receiver.deliveredAt(write.spaceId) !== undefined),
      scheduleMs.max + GIVE_UP_MS,
    );
    await waitFor(() => worker.pending() === 0, GIVE_UP_MS);
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
    const retry: WebhooksSection['retry'] = {
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
    if (errors.length > 0) throw new Error(`The stack logged errors:\n${errors.slice(0, 5).join('\n')}`);

    const result: WebhooksSection = {
      node: process.version,
      feedIntervalMs: FEED_INTERVAL_MS,
      pauseMaxMs: FEED_INTERVAL_MS,
      giveUpMs: GIVE_UP_MS,
      lagBoundMs: LAG_BOUND_MS,
      writeRatioTarget: WRITE_RATIO_TARGET,
      authCacheTtlSeconds: AUTH_CACHE_TTL_SECONDS,
      maxWebhooksPerOwner: config.maxWebhooksPerOwner ?? ENDPOINTS,
      warmUpRounds: WARM_UP,
      rounds: ROUNDS,
      lag,
      writes: writeCases,
      writeRatio: {
        median: round(twentyWrites.latencyMs.median / noneWrites.latencyMs.median, 3),
        p95: round(twentyWrites.latencyMs.p95 / noneWrites.latencyMs.p95, 3),
      },
      retry,
      loadAverage,
      loadAverageAfter: loadavg().map((value) => round(value, 2)),
      durationSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResult(result);
  } finally {
    await follower.stop();
    await worker.stop();
    await gateway.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    db.client.destroy();
  }
}

await main();
