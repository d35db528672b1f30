/**
 * The local stack as `npm start` composes it (infra/local/start.ts), in the bench's own process: the local
 * gateway, the webhook worker (`startWebhookWorker`) and the follower of the change feed handing it every event
 * (`followChanges`, polling the feed-change index every `feedIntervalMs`). No edge: a section that needs it starts
 * `npm start` itself (bench/stack/npm-start.ts).
 */
import { followChanges } from '#infra/local/edge-feed.ts';
import { startGateway } from '#infra/local/gateway.ts';
import { startWebhookWorker } from '#infra/local/webhook-worker.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';

export type InProcessStack = {
  /** The API's base URL (`…/api/v1`). */
  apiUrl: string;
  worker: ReturnType<typeof startWebhookWorker>;
  /** Every entry the stack logged at level `error`, as JSON. */
  errors: string[];
  stop: () => Promise<void>;
};

export async function startInProcessStack(options: {
  config: WebhookConfig;
  db: Db;
  authCacheTtlSeconds: number;
  feedIntervalMs: number;
  /** Told of each event as the follower hands it to the worker, before the worker has it. */
  onHandOver?: (owner: string, eventId: number) => void;
}): Promise<InProcessStack> {
  const { config, db } = options;
  const gateway = await startGateway({
    config,
    db,
    host: '127.0.0.1',
    port: 0,
    authCacheTtlSeconds: options.authCacheTtlSeconds,
    rateLimitPerMinute: 0,
    logRequests: false,
  });
  const errors: string[] = [];
  const log = (entry: Record<string, unknown>) => {
    if (entry.level === 'error') errors.push(JSON.stringify(entry));
  };
  const worker = startWebhookWorker({ db, config, log });
  const follower = followChanges({
    db,
    onEvent: (owner, event) => {
      options.onHandOver?.(owner, event.id);
      return worker.onEvent(owner, event);
    },
    onPosition: worker.onPosition,
    intervalMs: options.feedIntervalMs,
    log,
  });
  return {
    apiUrl: `${gateway.url}/api/v1`,
    worker,
    errors,
    stop: async () => {
      await follower.stop();
      await worker.stop();
      await gateway.close();
    },
  };
}
