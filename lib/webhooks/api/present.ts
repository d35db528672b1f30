/** A webhook and its delivery attempts as the API shows them, from their records. */

import { shownFields } from '#lib/kind-module.ts';
import type { DeliveryRecord } from '#lib/webhooks/data/deliveries.ts';
import type { WebhookRecord } from '#lib/webhooks/data/webhooks.ts';
import { webhookStoredNames } from './names.ts';
import type { Delivery, Webhook, WebhookWithSecret } from './schema.ts';

export const presentWebhook = (record: WebhookRecord): Webhook => ({
  id: record.id,
  ...shownFields(webhookStoredNames, record),
  disabled_reason: record.disabledReason ?? null,
  created_at: record.createdAt,
  updated_at: record.updatedAt,
});

/** A store's or a rotation's answer: the webhook and its current secret, shown this once. */
export const presentWithSecret = (record: WebhookRecord): WebhookWithSecret => ({
  ...presentWebhook(record),
  secret: record.secrets[0]?.value ?? '',
});

export const presentDelivery = (delivery: DeliveryRecord): Delivery => ({
  event_id: delivery.eventId,
  event_type: delivery.eventType as Delivery['event_type'],
  message_id: delivery.messageId,
  attempt: delivery.attempt,
  status_code: delivery.statusCode ?? null,
  error: delivery.error ?? null,
  duration_ms: delivery.durationMs,
  succeeded: delivery.succeeded,
  response_excerpt: delivery.responseExcerpt ?? '',
  pending: delivery.pending === true,
  created_at: delivery.createdAt,
});
