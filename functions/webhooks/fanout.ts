/**
 * The EventBridge rule's target for every change on the stack's bus: the event, as the feed lists it, becomes
 * one delivery job per webhook of its owner that wants it, sent to the delivery queue (`deliver.ts` attempts
 * them). Off the request path: an API write never waits for it. EventBridge retries a failed invocation, so a
 * job may be sent twice; both carry the same `webhook-id`, which receivers deduplicate by (Standard Webhooks).
 */
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createDb } from '#lib/data/dynamodb.ts';
import type { BusEvent } from '#lib/feed/bus.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { requiredSetting } from '#lib/platform/config.ts';
import { type DeliveryJob, fanOut } from '#lib/webhooks/dispatch.ts';
import { loadWebhookConfig, type WebhookConfig } from '#lib/webhooks/settings.ts';

type BusDelivery = { detail: BusEvent };

/** SQS takes at most 10 messages per batch. */
const BATCH = 10;

export const create = (config: WebhookConfig, db = createDb(config), sqs = new SQSClient({})) => {
  const queueUrl = requiredSetting(config, 'webhookQueueUrl', 'WEBHOOK_QUEUE_URL');
  return async ({ detail }: BusDelivery): Promise<{ jobs: number }> => {
    const { owner, schema_version: _version, ...event } = detail;
    const jobs = await fanOut(db, owner, event);
    for (let start = 0; start < jobs.length; start += BATCH) {
      const batch = jobs.slice(start, start + BATCH);
      const sent = await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((job: DeliveryJob, index) => ({ Id: String(index), MessageBody: JSON.stringify(job) })),
        }),
      );
      // A partial failure fails the invocation: EventBridge retries it (the jobs sent go again: same webhook-id).
      if ((sent.Failed ?? []).length > 0) throw new Error(`Could not queue ${sent.Failed?.length} delivery jobs`);
    }
    return { jobs: jobs.length };
  };
};

/** Its settings' loader: the shared ones and the webhooks' own (`lib/webhooks/settings.ts`). */
export const load = loadWebhookConfig;

export const handler = atColdStart(create, load);
