import { requestKeyOf } from '#lib/auth/rules/request-key.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { validateChanges } from '#lib/http/validate.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';

import { assertDeliverable, urlRulesOf } from '#lib/webhooks/api/destination.ts';
import { webhookErrors } from '#lib/webhooks/api/errors.ts';
import { webhookSchemas } from '#lib/webhooks/api/fields.ts';
import { presentWebhook } from '#lib/webhooks/api/present.ts';
import { showWebhook, updateWebhook, type WebhookRecord } from '#lib/webhooks/data/webhooks.ts';
import { resolveOf } from '#lib/webhooks/send.ts';
import { loadWebhookConfig, type WebhookConfig } from '#lib/webhooks/settings.ts';

const reply = (record: WebhookRecord) => ok({ data: presentWebhook(record) }, etagHeaders(record));

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: WebhookConfig, db = createDb(config)) => {
  const rules = urlRulesOf(config);
  const schemas = webhookSchemas(rules);
  const resolve = resolveOf(config);
  return httpHandler(async (request) => {
    const id = request.id();
    const exists = () => showWebhook(db, request.owner, id);
    const changes = await validateChanges(schemas.update, bodyOf(request), exists);
    if (changes.name !== undefined) {
      // Another owner's id is a 404 before anything is said about the URL.
      await assertDeliverable(changes.name, rules, resolve).catch(async (error: unknown) => {
        await exists();
        throw error;
      });
    }
    // A change that directs the webhook (URL, events, enabling) must name only events the key could read.
    const key = requestKeyOf(request.event.requestContext?.authorizer);
    return answer(await updateWebhook(db, request.owner, id, changes, key, writeOptions(request)), reply);
  }, webhookErrors);
};

/** Its settings' loader: the shared ones and the webhooks' own (`lib/webhooks/settings.ts`). */
export const load = loadWebhookConfig;

export const handler = atColdStart(create, load);
