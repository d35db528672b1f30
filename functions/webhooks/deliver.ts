/**
 * The delivery queue's consumer: each message is one event to one webhook (`fanout.ts`), attempted once per
 * receive. The attempt is SQS's receive count, so a function that crashed mid-attempt counts one too. A
 * failure is retried on the schedule by hiding the message until then (ChangeMessageVisibility, at most 11 h:
 * `visibilityTimeoutSeconds`, an hour under SQS's 12 h from the receive) and reporting it failed, so SQS keeps
 * it; a delivery, a schedule run out, or a webhook deleted meanwhile removes it. A message received more often than the schedule allows (a function that
 * keeps crashing) goes to the dead-letter queue, whose alarm says so.
 */
import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { createDb } from '#lib/data/dynamodb.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { requiredSetting } from '#lib/platform/config.ts';
import { log } from '#lib/platform/log.ts';
import { attemptDelivery, type DeliveryJob } from '#lib/webhooks/dispatch.ts';
import { retryScheduleOf, visibilityTimeoutSeconds } from '#lib/webhooks/rules/schedule.ts';
import { resolveOf } from '#lib/webhooks/send.ts';
import { loadWebhookConfig, type WebhookConfig } from '#lib/webhooks/settings.ts';

export const create = (
  config: WebhookConfig,
  db = createDb(config),
  sqs = new SQSClient({}),
  now = () => new Date(),
) => {
  const queueUrl = requiredSetting(config, 'webhookQueueUrl', 'WEBHOOK_QUEUE_URL');
  const deps = {
    db,
    schedule: retryScheduleOf(config.webhookRetryDelays),
    resolve: resolveOf(config),
    allowLoopback: config.webhookLocalLoopback === true,
    ...(config.webhookReservedPorts ? { reservedPorts: config.webhookReservedPorts } : {}),
    now,
  };

  async function attempt(record: SQSRecord): Promise<boolean> {
    const job = JSON.parse(record.body) as DeliveryJob;
    const attempt = Number(record.attributes.ApproximateReceiveCount) || job.attempt;
    const result = await attemptDelivery(deps, { ...job, attempt });
    if (result.outcome !== 'retry') return true;
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: record.receiptHandle,
        VisibilityTimeout: visibilityTimeoutSeconds(result.retryAt, now()),
      }),
    );
    return false;
  }

  /** Every message of the batch at once (each attempt waits on the network, up to 10 s). */
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const done = await Promise.all(
      event.Records.map((record) =>
        attempt(record).catch((error: unknown) => {
          // The job comes back after the queue's visibility timeout, as the next receive (and attempt).
          log('error', 'Webhook delivery failed', { messageId: record.messageId, error: String(error) });
          return false;
        }),
      ),
    );
    return {
      batchItemFailures: event.Records.filter((_, index) => !done[index]).map((record) => ({
        itemIdentifier: record.messageId,
      })),
    };
  };
};

/** Its settings' loader: the shared ones and the webhooks' own (`lib/webhooks/settings.ts`). */
export const load = loadWebhookConfig;

export const handler = atColdStart(create, load);
