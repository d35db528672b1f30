/**
 * Section 9, webhooks, on the local stack as `npm start` composes it, in this process (bench/stack/in-process.ts:
 * the local gateway, the webhook worker and the follower of the change feed handing it every event, polling
 * every 500 ms), over this run's DynamoDB Local and a table of its own (the follower scans it). Receivers are
 * HTTP servers on 127.0.0.1 in this process (bench/webhooks/receiver.ts), each verifying every delivery's
 * signature with the `standardwebhooks` package. One module per measurement in bench/webhooks/:
 *  - the delivery lag for an owner with 1 webhook and an owner with 20, and the write latency of the same writes
 *    with 0, 1 and 20 webhooks subscribed (delivery.ts);
 *  - a receiver failing the first 2 attempts of each event, every event to be delivered (retries.ts).
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME (a table of its own), CURSOR_SECRET and EDGE_HOSTNAME.
 */
import { loadavg } from 'node:os';
import { apiClient } from '#bench/stack/http.ts';
import { startInProcessStack } from '#bench/stack/in-process.ts';
import { round, writeResult } from '#bench/support.ts';
import { FEED_INTERVAL_MS, GIVE_UP_MS, type Owner, type WebhookBench } from '#bench/webhooks/common.ts';
import {
  deliveryLag,
  ENDPOINTS,
  ROUNDS,
  WARM_UP,
  type WebhookLagCase,
  type WebhookWriteCase,
} from '#bench/webhooks/delivery.ts';
import { type Receiver, startReceiver } from '#bench/webhooks/receiver.ts';
import { RETRY_DELAYS, type Retries, retries } from '#bench/webhooks/retries.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { onePlan, planOf } from '#lib/platform/plans.ts';
import { loadWebhookConfig } from '#lib/webhooks/settings.ts';

export type { WebhookSpread } from '#bench/webhooks/common.ts';
export type { WebhookLagCase, WebhookWriteCase } from '#bench/webhooks/delivery.ts';

/** The local stack's authorizer cache (`AUTH_CACHE_TTL_SECONDS`, default 60). */
const AUTH_CACHE_TTL_SECONDS = 60;
/** The promise for the local stack: a delivery within about a second of the write (checked on the p95). */
const LAG_BOUND_MS = 1_000;
/** What "the write latency does not change" is held to: 20 endpoints over 0, medians of the same run. */
const WRITE_RATIO_TARGET = 1.2;

export type WebhooksSection = {
  node: string;
  feedIntervalMs: number;
  pauseMaxMs: number;
  giveUpMs: number;
  lagBoundMs: number;
  writeRatioTarget: number;
  authCacheTtlSeconds: number;
  /** The per-owner quota of webhooks the bench runs with (its plan's, `PLANS`). */
  maxWebhooksPerOwner: number;
  warmUpRounds: number;
  rounds: number;
  lag: WebhookLagCase[];
  writes: WebhookWriteCase[];
  /** The write latency with 20 endpoints over 0, same run: medians, and p95s. */
  writeRatio: { median: number; p95: number };
  retry: Retries;
  loadAverage: number[];
  loadAverageAfter: number[];
  durationSeconds: number;
};

async function main() {
  const started = Date.now();
  const loadAverage = loadavg().map((value) => round(value, 2));
  // The functions' settings as infra/local/start.ts loads them (the shared ones and the webhooks' own).
  const config = loadWebhookConfig({
    ...process.env,
    WEBHOOK_RETRY_DELAYS: RETRY_DELAYS,
    // As `npm start` sets it: the receivers are on this machine, over http://.
    WEBHOOK_LOCAL_LOOPBACK: 'true',
    PLANS: JSON.stringify(onePlan({ webhooks: ENDPOINTS })),
  });
  const db = createDb(config);
  // The moment the follower hands each event over, noted on the way.
  const handedAt = new Map<string, number>();
  const stack = await startInProcessStack({
    config,
    db,
    authCacheTtlSeconds: AUTH_CACHE_TTL_SECONDS,
    feedIntervalMs: FEED_INTERVAL_MS,
    onHandOver: (owner, eventId) => handedAt.set(`${owner}/${eventId}`, performance.now()),
  });
  const api = apiClient(stack.apiUrl, '');
  /** A POST that must answer 201. */
  const post = async (key: string, path: string, body: { form?: Record<string, string>; json?: unknown }) => {
    const reply = await api('POST', path, body, key);
    if (reply.status !== 201) throw new Error(`POST ${path}: ${reply.status}, not 201`);
    return reply.data;
  };
  const receivers: Receiver[] = [];
  const run = Math.random().toString(36).slice(2, 8);
  const bench: WebhookBench = {
    async ownerWith(label, endpoints, failFirst = 0) {
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
      return { label, owner, key, receivers: own } satisfies Owner;
    },
    async writeSpace(owner, name) {
      const start = performance.now();
      const space = await post(owner.key, '/spaces', { form: { name } });
      const answeredAt = performance.now();
      return { owner, writeMs: answeredAt - start, answeredAt, spaceId: Number(space.id) };
    },
    pending: () => stack.worker.pending(),
    handedAt: (owner, eventId) => handedAt.get(`${owner}/${eventId}`),
  };

  try {
    const { lag, writes } = await deliveryLag(bench);
    const retry = await retries(bench);
    if (stack.errors.length > 0) throw new Error(`The stack logged errors:\n${stack.errors.slice(0, 5).join('\n')}`);
    const [noneWrites, , twentyWrites] = writes as [WebhookWriteCase, WebhookWriteCase, WebhookWriteCase];
    const result: WebhooksSection = {
      node: process.version,
      feedIntervalMs: FEED_INTERVAL_MS,
      pauseMaxMs: FEED_INTERVAL_MS,
      giveUpMs: GIVE_UP_MS,
      lagBoundMs: LAG_BOUND_MS,
      writeRatioTarget: WRITE_RATIO_TARGET,
      authCacheTtlSeconds: AUTH_CACHE_TTL_SECONDS,
      maxWebhooksPerOwner: planOf(config.plans, undefined).limits.webhooks,
      warmUpRounds: WARM_UP,
      rounds: ROUNDS,
      lag,
      writes,
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
    await stack.stop();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    db.client.destroy();
  }
}

await main();
