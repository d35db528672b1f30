/**
 * The local stack's webhook deliveries for end-to-end tests: the test gateway, the feed follower and the
 * webhook worker over the test file's table, composed as `npm start` composes them (`infra/local/start.ts`),
 * with a short retry schedule and a fast poll; a test DNS server for the hosts webhooks name.
 */

import { type EdgeFollower, followChanges } from '#infra/local/edge-feed.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { startWebhookWorker, type WebhookWorker } from '#infra/local/webhook-worker.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { db as sharedDb } from './database.ts';
import type { DnsTestServer } from './dns-server.ts';
import { configWithDns } from './domains.ts';
import { startTestGateway } from './http.ts';

export type DeliveringStack = {
  gateway: Gateway;
  worker: WebhookWorker;
  follower: EdgeFollower;
  config: WebhookConfig;
  close(): Promise<void>;
};

export async function startDeliveringStack(
  dns: DnsTestServer,
  {
    retryDelays = '300ms,300ms,300ms',
    db = sharedDb,
    localLoopback = true,
  }: { retryDelays?: string; db?: Db; localLoopback?: boolean } = {},
): Promise<DeliveringStack> {
  const config: WebhookConfig = {
    ...configWithDns(dns),
    webhookLocalLoopback: localLoopback,
    webhookRetryDelays: retryDelays,
  };
  const gateway = await startTestGateway({ config, db });
  const worker = startWebhookWorker({ db, config });
  const follower = followChanges({ db, onEvent: worker.onEvent, onPosition: worker.onPosition, intervalMs: 100 });
  return {
    gateway,
    worker,
    follower,
    config,
    close: async () => {
      await follower.stop();
      await worker.stop();
      await gateway.close();
    },
  };
}

/** Waits until `check` holds (polling), or fails after `timeoutMs` with what it last saw. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  check: (value: T) => boolean,
  timeoutMs = 8_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`Still not there after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
