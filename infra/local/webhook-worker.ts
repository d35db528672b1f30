/**
 * The local stack's webhook deliveries: what EventBridge, the fan-out function and the SQS queue do on AWS,
 * in one process. Each event the feed follower hands over (`edge-feed.ts`) fans out with the same `fanOut`;
 * each job is attempted with the same `attemptDelivery`, and a failure waits on a timer for its retry, on the
 * same schedule (`WEBHOOK_RETRY_DELAYS`).
 *
 * What SQS keeps on AWS is kept in the table, so that a restart (after a SIGKILL, say) resumes where the worker
 * stopped: each job's next attempt is a pending delivery item (`savePendingDelivery`: written before the attempt,
 * moved on by a retry, removed once delivered, given up or dropped; listed with the webhook's attempts), and the
 * last event of each owner's feed that was fanned out is the worker's position (`LOCAL#webhook-worker`,
 * `POSITION#<owner>`). At start, the pending attempts are scheduled again (at once when due), and every event
 * after an owner's position is fanned out (a fan-out repeated for an event that was fanned out just before the
 * kill keeps its pending attempt as it was). An owner without a position has its events delivered from the
 * worker's first start on this table (`SINCE`): a table from before the worker kept positions does not get its
 * history delivered (on AWS only new changes reach the bus). Delivery is at least once: an attempt the kill
 * interrupted is made again, with the same `webhook-id`.
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import type { EventRecord } from '#lib/data/event-item.ts';
import type { FeedPosition } from '#lib/data/events.ts';
import { presentEvent } from '#lib/feed/present.ts';
import { pendingDeliveries, removePendingDelivery, savePendingDelivery } from '#lib/webhooks/data/deliveries.ts';
import { attemptDelivery, type DeliveryJob, type DispatchDeps, fanOut } from '#lib/webhooks/dispatch.ts';
import { retryScheduleOf } from '#lib/webhooks/rules/schedule.ts';
import { messageIdOf } from '#lib/webhooks/rules/signature.ts';
import { resolveOf } from '#lib/webhooks/send.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';

export type WebhookWorker = {
  /** The follower's `onEvent`. */
  onEvent: (owner: string, event: EventRecord) => Promise<void>;
  /** The follower's `onPosition`: the owner's events up to there are fanned out (kept for a restart). */
  onPosition: (owner: string, position: FeedPosition) => Promise<void>;
  /** Resolves once the pending attempts kept in the table are scheduled again (and the worker's state read). */
  ready: Promise<void>;
  /** Jobs waiting for an attempt or in one. */
  pending: () => number;
  stop: () => Promise<void>;
};

/** The worker's own items: a stack-level partition (no owner's), read once at start. */
const STATE_PK = 'LOCAL#webhook-worker';
const SINCE_SK = 'SINCE';
const POSITION_PREFIX = 'POSITION#';

type Kept = { epoch: number | undefined; id: number };

export function startWebhookWorker(options: {
  db: Db;
  config: WebhookConfig;
  log?: (entry: Record<string, unknown>) => void;
  /** The worker's first start on this table, when none is recorded yet: events of owners without a position from before it are not delivered. */
  since?: Date;
}): WebhookWorker {
  const { config, db } = options;
  const edge = { edgeHostname: config.edgeHostname ?? '' };
  const deps: DispatchDeps = {
    db,
    schedule: retryScheduleOf(config.webhookRetryDelays),
    allowLoopback: config.webhookLocalLoopback === true,
    ...(config.webhookReservedPorts ? { reservedPorts: config.webhookReservedPorts } : {}),
    resolve: resolveOf(config),
  };
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  const positions = new Map<string, Kept>();
  let since = (options.since ?? new Date()).toISOString();
  let stopped = false;

  function track(work: Promise<void>) {
    running.add(work);
    void work.finally(() => running.delete(work));
  }

  const pendingOf = (job: DeliveryJob, dueAt: Date) => ({
    owner: job.owner,
    webhookId: job.webhookId,
    event: job.event,
    messageId: messageIdOf(job.webhookId, job.event.id),
    attempt: job.attempt,
    dueAt: dueAt.toISOString(),
  });

  /** The job's next attempt, kept in the table, then on a timer. */
  async function retryLater(job: DeliveryJob, at: Date) {
    await savePendingDelivery(db, pendingOf(job, at));
    later(job, at.getTime() - Date.now());
  }

  function attempt(job: DeliveryJob) {
    track(
      attemptDelivery(deps, job)
        .then(async (result) => {
          if (result.outcome === 'retry') return retryLater({ ...job, attempt: job.attempt + 1 }, result.retryAt);
          await removePendingDelivery(db, job.owner, job.webhookId, messageIdOf(job.webhookId, job.event.id));
        })
        .catch(async (error: unknown) => {
          options.log?.({ level: 'error', message: 'Webhook delivery failed', error: String(error) });
          // As SQS would: the job comes back for another attempt (its pending item stays as it was).
          const delay = deps.schedule[job.attempt - 1];
          if (delay !== undefined) {
            await retryLater({ ...job, attempt: job.attempt + 1 }, new Date(Date.now() + delay)).catch(() => {});
          }
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

  async function start() {
    // The first start on this table is recorded once; later starts read it.
    await db.client
      .send(
        new PutCommand({
          TableName: db.tableName,
          Item: { pk: STATE_PK, sk: SINCE_SK, since },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      )
      .catch((error: Error) => {
        if (error.name !== 'ConditionalCheckFailedException') throw error;
      });
    const { Item } = await db.client.send(
      new GetCommand({ TableName: db.tableName, Key: { pk: STATE_PK, sk: SINCE_SK }, ConsistentRead: true }),
    );
    if (typeof Item?.since === 'string') since = Item.since;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.client.send(
        new QueryCommand({
          TableName: db.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': STATE_PK, ':prefix': POSITION_PREFIX },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const owner = String(item.sk).slice(POSITION_PREFIX.length);
        positions.set(owner, { epoch: typeof item.epoch === 'number' ? item.epoch : undefined, id: Number(item.id) });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    const kept = await pendingDeliveries(db);
    for (const each of kept) {
      const job: DeliveryJob = {
        owner: each.owner,
        webhookId: each.webhookId,
        event: each.event,
        attempt: each.attempt,
      };
      later(job, Date.parse(each.dueAt) - Date.now());
    }
    if (kept.length > 0) options.log?.({ level: 'info', message: 'Webhook attempts resumed', pending: kept.length });
  }
  /** The worker's state read (a failure, DynamoDB not answering say, is logged and tried again at the next event). */
  let ready = start();
  const resumed = () => {
    const current = ready;
    return current.catch((error: unknown) => {
      options.log?.({ level: 'error', message: 'Webhook worker could not resume', error: String(error) });
      if (ready === current) ready = start();
      throw error;
    });
  };
  void resumed().catch(() => {});

  /** Whether the event was fanned out before (by this worker or before a restart), or predates the worker. */
  function handled(owner: string, record: EventRecord, epoch: number | undefined): boolean {
    const kept = positions.get(owner);
    if (kept && (kept.epoch === undefined || epoch === undefined || kept.epoch === epoch)) return record.id <= kept.id;
    return record.createdAt < since;
  }

  /** The epoch of the feed each owner's events come from (known from the follower's positions). */
  const epochs = new Map<string, number | undefined>();

  return {
    onEvent: async (owner, record) => {
      await resumed();
      if (stopped || handled(owner, record, epochs.get(owner))) return;
      const event = presentEvent(record, edge);
      const now = new Date();
      for (const job of await fanOut(db, owner, event)) {
        // Kept before it is tried: a kill from here on leaves it pending, not lost. One kept already (fanned out
        // just before a restart) is scheduled from the table.
        if (await savePendingDelivery(db, pendingOf(job, now), { onlyNew: true })) attempt(job);
      }
    },
    onPosition: async (owner, position) => {
      await resumed();
      epochs.set(owner, position.epoch);
      const kept = positions.get(owner);
      if (kept && kept.epoch === position.epoch && kept.id >= position.id) return;
      await db.client.send(
        new PutCommand({
          TableName: db.tableName,
          Item: {
            pk: STATE_PK,
            sk: `${POSITION_PREFIX}${owner}`,
            id: position.id,
            ...(position.epoch === undefined ? {} : { epoch: position.epoch }),
          },
        }),
      );
      positions.set(owner, { epoch: position.epoch, id: position.id });
    },
    get ready() {
      return ready;
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
