/**
 * The local stack's webhook deliveries: what EventBridge, the fan-out function and the SQS queue do on AWS,
 * in one process. Each event the feed follower hands over (`edge-feed.ts`) fans out with the same `fanOut`;
 * each job is attempted with the same `attemptDelivery`, and a failure waits on a timer for its retry, on the
 * same schedule (`WEBHOOK_RETRY_DELAYS`). Jobs live in memory: a restart of `npm start` forgets the retries
 * pending (AWS keeps them in SQS). Events from before the worker started are not delivered (on AWS only new
 * changes reach the bus).
 */

import type { Db } from '#lib/data/dynamodb.ts';
import type { EventRecord } from '#lib/data/event-item.ts';
import { presentEvent } from '#lib/feed/present.ts';
import { attemptDelivery, type DeliveryJob, type DispatchDeps, fanOut } from '#lib/webhooks/dispatch.ts';
import { retryScheduleOf } from '#lib/webhooks/rules/schedule.ts';
import { resolveOf } from '#lib/webhooks/send.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';

export type WebhookWorker = {
  /** The follower's `onEvent`. */
  onEvent: (owner: string, event: EventRecord) => Promise<void>;
  /** Jobs waiting for an attempt or in one. */
  pending: () => number;
  stop: () => Promise<void>;
};

export function startWebhookWorker(options: {
  db: Db;
  config: WebhookConfig;
  log?: (entry: Record<string, unknown>) => void;
  /** Deliveries of events created before this are not made. */
  since?: Date;
}): WebhookWorker {
  const { config } = options;
  const edge = { edgeHostname: config.edgeHostname ?? '' };
  const deps: DispatchDeps = {
    db: options.db,
    schedule: retryScheduleOf(config.webhookRetryDelays),
    allowLoopback: config.webhookLocalLoopback === true,
    resolve: resolveOf(config),
  };
  const since = (options.since ?? new Date()).toISOString();
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  function track(work: Promise<void>) {
    running.add(work);
    void work.finally(() => running.delete(work));
  }

  function attempt(job: DeliveryJob) {
    track(
      attemptDelivery(deps, job)
        .then((result) => {
          if (result.outcome === 'retry')
            later({ ...job, attempt: job.attempt + 1 }, result.retryAt.getTime() - Date.now());
        })
        .catch((error: unknown) => {
          options.log?.({ level: 'error', message: 'Webhook delivery failed', error: String(error) });
          // As SQS would: the job comes back for another attempt.
          const retryAt = deps.schedule[job.attempt - 1];
          if (retryAt !== undefined) later({ ...job, attempt: job.attempt + 1 }, retryAt);
        }),
    );
  }

  function later(job: DeliveryJob, delayMs: number) {
    if (stopped) return;
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        attempt(job);
      },
      Math.max(0, delayMs),
    );
    timers.add(timer);
  }

  return {
    onEvent: async (owner, record) => {
      if (stopped || record.createdAt < since) return;
      const event = presentEvent(record, edge);
      for (const job of await fanOut(options.db, owner, event)) attempt(job);
    },
    pending: () => timers.size + running.size,
    stop: async () => {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...running]);
    },
  };
}
