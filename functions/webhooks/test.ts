import { randomUUID } from 'node:crypto';
import { createDb } from '#lib/data/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';

import { presentDelivery, presentWebhook } from '#lib/webhooks/api/present.ts';
import { showWebhook } from '#lib/webhooks/data/webhooks.ts';
import { sendEvent } from '#lib/webhooks/dispatch.ts';
import { resolveOf } from '#lib/webhooks/send.ts';
import { loadWebhookConfig, type WebhookConfig } from '#lib/webhooks/settings.ts';

/**
 * One attempt at once, answered: a `webhook.test` event carrying the webhook as shown (never its secret), sent
 * whether or not the webhook is enabled or wants that type, and not retried. No body.
 */
export const create = (config: WebhookConfig, db = createDb(config)) => {
  const deps = {
    db,
    // One attempt, never retried.
    schedule: [],
    allowLoopback: config.webhookLocalLoopback === true,
    ...(config.webhookReservedPorts ? { reservedPorts: config.webhookReservedPorts } : {}),
    resolve: resolveOf(config),
  };
  return httpHandler(async (request) => {
    const webhook = await showWebhook(db, request.owner, request.id());
    const event = {
      id: `test_${randomUUID().replaceAll('-', '')}`,
      type: 'webhook.test',
      created_at: new Date().toISOString(),
      data: presentWebhook(webhook),
    };
    const delivery = await sendEvent(deps, request.owner, webhook, event, 1);
    return ok({ data: presentDelivery(delivery) });
  });
};

/** Its settings' loader: the shared ones and the webhooks' own (`lib/webhooks/settings.ts`). */
export const load = loadWebhookConfig;

export const handler = atColdStart(create, load);
