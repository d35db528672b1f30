/**
 * The document's `webhooks` section (OpenAPI 3.1): what a webhook's URL is sent. Every change it subscribes to,
 * as the change feed lists it, and the `webhook.test` event of `POST /webhooks/{id}/test`; each signed as the
 * Standard Webhooks specification says, with its headers.
 */
import { ROTATED_SECRET_VALID_MS } from '#lib/webhooks/data/webhooks.ts';
import { DEFAULT_RETRY_DELAYS, DISABLE_AFTER_MS, JITTER_RATIO } from '#lib/webhooks/rules/schedule.ts';
import { SECRET_PREFIX, USER_AGENT } from '#lib/webhooks/rules/signature.ts';
import { DELIVERY_TIMEOUT_MS, EXCERPT_WAIT_MS } from '#lib/webhooks/send.ts';
import { eventListExample } from './examples.ts';
import { JSON_TYPE } from './responses.ts';
import { schemaRef } from './schemas.ts';

const HOUR = 3_600_000;

/** The tag of what a webhook's endpoint is sent (apart from the Webhooks tag, the resource's operations). */
export const RECEIVING_TAG = 'Receiving deliveries';

/** `5s, 5m, 30m, 2h, 5h, 10h, 10h`. */
const scheduleText = () =>
  DEFAULT_RETRY_DELAYS.map((ms) =>
    ms < 60_000 ? `${ms / 1000} s` : ms < HOUR ? `${ms / 60_000} min` : `${ms / HOUR} h`,
  ).join(', ');

const headerParameters = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description:
      'The message id: the same on every attempt of this event to this webhook (`msg_<webhook>_<event id>`). ' +
      'Deliveries are at least once: deduplicate by it.',
    schema: { type: 'string', pattern: '^msg_[0-9]+_[A-Za-z0-9_]+$' },
    example: 'msg_2_000000000042',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'When this attempt was signed, in seconds since the epoch. Refuse a delivery more than about 5 minutes ' +
      'from your clock (a replayed request): the libraries do.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1738598712',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      `\`v1,<base64 HMAC-SHA256>\` of \`<webhook-id>.<webhook-timestamp>.<body>\`, keyed with the bytes your ` +
      `secret's base64 stands for (after \`${SECRET_PREFIX}\`). For ${ROTATED_SECRET_VALID_MS / HOUR} hours after ` +
      'a rotation there are two, space-separated, one per secret: accept the delivery when any one matches. ' +
      'Verify with a Standard Webhooks library (the `standardwebhooks` npm package, say) over the body exactly ' +
      'as received.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
  {
    name: 'user-agent',
    in: 'header',
    required: true,
    schema: { type: 'string', const: USER_AGENT },
  },
];

const answers = {
  '2XX': {
    description: `Delivered: a 2xx status line within ${DELIVERY_TIMEOUT_MS / 1000} s, whatever the body does after it. Nothing more is sent for this event. The body is read for at most ${EXCERPT_WAIT_MS / 1000} s after the status and 4 KiB; its first 256 characters are kept with the attempt.`,
  },
  default: {
    description:
      'Anything else (another status, a redirect, which is not followed, a timeout, a refused connection) is a ' +
      `failed attempt, retried after ${scheduleText()} (each ±${JITTER_RATIO * 100} %): 8 attempts over more than ` +
      `24 hours. A webhook whose every attempt failed for ${DISABLE_AFTER_MS / (24 * HOUR)} days is disabled ` +
      '(`disabled_reason: "failing"`, a `webhook.disabled` event).',
  },
};

export function webhooksSection() {
  return {
    change: {
      post: {
        operationId: 'receiveChange',
        tags: [RECEIVING_TAG],
        summary: "A change of the owner's, POSTed to a webhook",
        description:
          'Each event of the change feed whose type the webhook subscribes to (`events`) and that was created ' +
          'while it was enabled, exactly as `GET /events` lists it, signed. Sent within about a second of the ' +
          'change; not necessarily in order (order by `id`), at least once (deduplicate by `webhook-id`). Only ' +
          'the owner’s own events; the destination is checked again at every attempt (a host that now resolves ' +
          'to a private address fails it).',
        parameters: headerParameters,
        requestBody: {
          required: true,
          content: { [JSON_TYPE]: { schema: schemaRef('Event'), example: eventListExample.data[1] } },
        },
        responses: answers,
        security: [],
      },
    },
    test: {
      post: {
        operationId: 'receiveTest',
        tags: [RECEIVING_TAG],
        summary: 'The test event, POSTed by `POST /webhooks/{id}/test`',
        description:
          'Sent once, at once, whether or not the webhook is enabled or subscribes to it; not retried and not in ' +
          'the change feed. Signed like every delivery.',
        parameters: headerParameters,
        requestBody: {
          required: true,
          content: { [JSON_TYPE]: { schema: schemaRef('WebhookTestEvent') } },
        },
        responses: { '2XX': answers['2XX'], default: { description: 'The attempt failed; it is not retried.' } },
        security: [],
      },
    },
  };
}
