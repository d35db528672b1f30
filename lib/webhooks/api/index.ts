/** Webhooks: endpoints that receive the owner's changes, signed (Standard Webhooks), retried until delivered. */

import type { ResourceModule } from '#lib/kind-module.ts';
import { singleSchema } from '#lib/schemas/responses.ts';
import type { WebhookRecord } from '#lib/webhooks/data/webhooks.ts';
import { webhookBodies, webhookFieldDocs, webhookFieldTypes, webhookRequestExamples } from './fields.ts';
import { presentWebhook } from './present.ts';
import {
  deliveryListSchema,
  deliverySchema,
  storedWebhookExample,
  type Webhook,
  webhookExample,
  webhookSchema,
  webhookTestEventSchema,
  webhookWithSecretSchema,
} from './schema.ts';

export const webhooks = {
  kind: 'webhook',
  collection: 'webhooks',
  description:
    "An endpoint that is sent the owner's changes as they happen: signed (Standard Webhooks), retried for more than 24 hours until it answers 2xx.",
  bodies: webhookBodies({}),
  fieldDocs: webhookFieldDocs,
  fieldTypes: webhookFieldTypes,
  requestExamples: webhookRequestExamples,
  schema: webhookSchema,
  examples: { shown: webhookExample, stored: storedWebhookExample },
  present: presentWebhook,
  notes: {
    store:
      ' The answer holds the signing `secret`, shown only then (and by `rotate-secret`): keep it to verify ' +
      'deliveries. The URL is checked when stored and at every delivery: a host that is or resolves to a ' +
      'private, loopback, link-local, multicast or metadata address is refused (422).',
    destroy: '; attempts still pending for it are dropped',
  },
  stored: { name: 'WebhookWithSecret', schema: webhookWithSecretSchema },
  components: {
    Delivery: deliverySchema,
    DeliveryResponse: singleSchema(deliverySchema),
    DeliveryList: deliveryListSchema,
    WebhookTestEvent: webhookTestEventSchema,
  },
} satisfies ResourceModule<'webhook', Webhook, WebhookRecord>;
