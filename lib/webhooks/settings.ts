/**
 * The webhook functions' settings: the shared ones (`lib/platform/config.ts`) and the webhooks' own, which only the
 * functions that store, test or deliver webhooks read (so only their bundles carry them). Bound at their cold
 * start: a bad retry schedule or a missing queue fails it, not the first delivery.
 */
import * as v from 'valibot';
import type { Env } from '#lib/platform/cold-start.ts';
import { type Config, configOf, parseSettings, settingEntries } from '#lib/platform/config.ts';
import { RetryDelaysError, retryScheduleOf } from './rules/schedule.ts';

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty()));

const webhookSettingsSchema = v.object(
  {
    ...settingEntries,
    /** Most webhooks one owner may hold (each event is delivered to every one that wants it); default 10. */
    MAX_WEBHOOKS_PER_OWNER: v.optional(
      v.pipe(v.string(), v.trim(), v.regex(/^[1-9]\d{0,5}$/, 'must be a positive integer'), v.transform(Number)),
    ),
    /** The retry schedule (`5s,5m,30m,2h`…; default Standard Webhooks' 5s,5m,30m,2h,5h,10h,10h). */
    WEBHOOK_RETRY_DELAYS: v.optional(
      v.pipe(
        v.string(),
        v.rawTransform(({ dataset, addIssue, NEVER }) => {
          try {
            retryScheduleOf(dataset.value);
            return dataset.value;
          } catch (error) {
            if (!(error instanceof RetryDelaysError)) throw error;
            addIssue({ message: error.message.replace(/^WEBHOOK_RETRY_DELAYS /, '') });
            return NEVER;
          }
        }),
      ),
    ),
    /** The SQS queue deliveries wait in, on AWS (the fan-out sends to it; the stack sets it). */
    WEBHOOK_QUEUE_URL: optionalText,
    /** `true` only on the local stack (`npm start`): webhooks may call `http://` on loopback. Never on AWS. */
    WEBHOOK_LOCAL_LOOPBACK: v.optional(
      v.pipe(v.string(), v.trim(), v.regex(/^(true|false)$/, 'must be true or false')),
    ),
  },
  'is required',
);

export type WebhookConfig = Config & {
  /** Absent: the data layer's default (`lib/webhooks/data/webhooks.ts`). */
  maxWebhooksPerOwner?: number;
  /** `WEBHOOK_RETRY_DELAYS` as given (checked here; parsed by the functions that deliver: `retryScheduleOf`). */
  webhookRetryDelays?: string;
  webhookQueueUrl?: string;
  /** The local stack: webhooks may call `http://` on loopback. */
  webhookLocalLoopback?: boolean;
  /**
   * The local stack's own ports, never a webhook's destination (store, update, test, delivery): set by `npm start`
   * (infra/local/start.ts) as its listeners start, not from the environment. None on AWS.
   */
  webhookReservedPorts?: ReadonlySet<number>;
};

export function loadWebhookConfig(env: Env): WebhookConfig {
  const settings = parseSettings(webhookSettingsSchema, env);
  return {
    ...configOf(settings),
    ...(settings.MAX_WEBHOOKS_PER_OWNER === undefined ? {} : { maxWebhooksPerOwner: settings.MAX_WEBHOOKS_PER_OWNER }),
    ...(settings.WEBHOOK_RETRY_DELAYS?.trim() ? { webhookRetryDelays: settings.WEBHOOK_RETRY_DELAYS } : {}),
    ...(settings.WEBHOOK_QUEUE_URL ? { webhookQueueUrl: settings.WEBHOOK_QUEUE_URL } : {}),
    webhookLocalLoopback: settings.WEBHOOK_LOCAL_LOOPBACK === 'true',
  };
}
