/**
 * A webhook as the API shows it, its delivery attempts, and the delivery itself (what a receiver gets): the
 * response schemas the presenters are typed by and the document is generated from, and their examples.
 * Functions import only their types.
 */
import * as v from 'valibot';
import { eventTypes } from '#lib/kinds.ts';
import { id, integer, nullable, text, timestamp, url } from '#lib/schemas/values.ts';
import { WEBHOOK_URL_MAX_LENGTH } from '#lib/webhooks/rules/address.ts';
import { deliveryFailures } from '#lib/webhooks/rules/failures.ts';
import { SECRET_PREFIX } from '#lib/webhooks/rules/signature.ts';

export const webhookSchema = v.strictObject({
  id,
  url: v.pipe(
    url(),
    v.description(
      `Where deliveries are POSTed, as stored: its WHATWG form (percent-encoded), which may be longer than the ${WEBHOOK_URL_MAX_LENGTH} characters sent.`,
    ),
  ),
  events: v.pipe(
    v.array(v.string()),
    v.description('The event types delivered: exact types, `<kind>.*` families, or `*` for every event.'),
  ),
  enabled: v.pipe(v.boolean(), v.description('Whether events are delivered.')),
  description: nullable(text(255, 'A note for you.'), 'A note for you, or null.'),
  disabled_reason: nullable(
    v.picklist(['owner', 'failing', 'key_revoked', 'key_expired']),
    'Why the webhook is disabled: `owner`, you disabled it; `failing`, every delivery failed for 5 days in a ' +
      'row; `key_revoked` or `key_expired`, the API key that last stored, redirected or enabled it (the newest ' +
      'key of its rotation) was revoked or expired, found at its next event (a `webhook.disabled` event says so ' +
      'but for `owner`). Enable it again with a key that may read its events. Null while enabled.',
  ),
  created_at: timestamp('When the webhook was stored'),
  updated_at: timestamp('When the webhook last changed'),
});
export type Webhook = v.InferOutput<typeof webhookSchema>;

/** What a store and a secret's rotation answer: the webhook, with the secret shown then and never again. */
export const webhookWithSecretSchema = v.strictObject({
  ...webhookSchema.entries,
  secret: v.pipe(
    v.string(),
    v.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/),
    v.description(
      `The signing secret (\`${SECRET_PREFIX}\` and the base64 of 32 random bytes), shown only in this answer: keep it ` +
        'to verify deliveries (Standard Webhooks). After a rotation, deliveries carry a signature with each secret for 24 hours.',
    ),
  ),
});
export type WebhookWithSecret = v.InferOutput<typeof webhookWithSecretSchema>;

export const deliverySchema = v.strictObject({
  event_id: v.pipe(v.string(), v.description('The event delivered, as the feed lists it (a test delivery: `test_…`).')),
  event_type: v.pipe(v.picklist([...eventTypes, 'webhook.test']), v.description('Its type.')),
  message_id: v.pipe(v.string(), v.description('The `webhook-id` header: the same on every attempt of this event.')),
  attempt: v.pipe(integer(1), v.description('The attempt, from 1.')),
  status_code: nullable(integer(100, 599), 'The answer’s status; null when none came (see `error`).'),
  error: nullable(
    v.picklist(deliveryFailures),
    'What went wrong when no answer came: the 10 s deadline passed, DNS, the connection (refused, reset, ' +
      'unreachable), TLS, not HTTP, or a destination refused (a private address, say); null when an answer came.',
  ),
  duration_ms: v.pipe(integer(0), v.description('From the start of the attempt (DNS included) to its end.')),
  succeeded: v.pipe(v.boolean(), v.description('A 2xx answer within 10 s.')),
  response_excerpt: v.pipe(v.string(), v.description('The start of the answer’s body, at most 256 characters.')),
  pending: v.pipe(
    v.boolean(),
    v.description(
      'An attempt not made yet, due at `created_at` (no status, error or excerpt yet). The local stack lists the ' +
        'next attempt of each event it has still to deliver; on AWS an attempt waiting for its retry is in SQS, ' +
        'and only attempts made are listed.',
    ),
  ),
  created_at: timestamp('When the attempt was made (a pending one: when it is due)'),
});
export type Delivery = v.InferOutput<typeof deliverySchema>;

export const deliveryListSchema = v.strictObject({
  data: v.array(deliverySchema),
  links: v.strictObject({
    first: url('The newest attempts.'),
    next: nullable(url(), 'Older attempts; null on the last page.'),
  }),
  meta: v.strictObject({
    path: url('The list URL without its query.'),
    per_page: integer(1, 100),
    next_cursor: nullable(v.string(), 'Opaque cursor of the next page; null on the last.'),
  }),
  status: v.literal(200),
});
export type DeliveryList = v.InferOutput<typeof deliveryListSchema>;

/** What `POST /webhooks/{id}/test` sends: the webhook as shown, never its secret. */
export const webhookTestEventSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^test_[0-9a-f]{32}$/), v.description('A new id per test, not a feed event’s.')),
  type: v.literal('webhook.test'),
  created_at: timestamp('When the test was sent'),
  data: webhookSchema,
});
export type WebhookTestEvent = v.InferOutput<typeof webhookTestEventSchema>;

const at = '2025-01-15T09:30:00.000Z';
const later = '2025-02-03T16:05:12.345Z';

export const webhookExample: Webhook = {
  id: 2,
  url: 'https://hooks.example.com/domains-spaces',
  events: ['domain.*'],
  enabled: true,
  description: 'Our CRM',
  disabled_reason: null,
  created_at: at,
  updated_at: later,
};

export const storedWebhookExample: WebhookWithSecret = {
  ...webhookExample,
  updated_at: at,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1Nq3Rn/BWgo=',
};

export const deliveryExample: Delivery = {
  event_id: '000000000042',
  event_type: 'domain.updated',
  message_id: 'msg_2_000000000042',
  attempt: 2,
  status_code: 200,
  error: null,
  duration_ms: 84,
  succeeded: true,
  response_excerpt: 'ok',
  pending: false,
  created_at: later,
};
