import { requestKeyOf } from '#lib/auth/rules/request-key.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { type ApiRequest, answer, created, httpHandler, locationHeaders } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { validate } from '#lib/http/validate.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';

import { assertDeliverable, urlRulesOf } from '#lib/webhooks/api/destination.ts';
import { webhookErrors } from '#lib/webhooks/api/errors.ts';
import { webhookSchemas } from '#lib/webhooks/api/fields.ts';
import { presentWithSecret } from '#lib/webhooks/api/present.ts';
import { storeWebhook, type WebhookRecord } from '#lib/webhooks/data/webhooks.ts';
import { subscribedPatterns } from '#lib/webhooks/rules/event-patterns.ts';
import { resolveOf } from '#lib/webhooks/send.ts';
import { loadWebhookConfig, type WebhookConfig } from '#lib/webhooks/settings.ts';

/** The only answer that shows the secret (a retry with the same Idempotency-Key gets it again). */
const replyFor = (request: ApiRequest) => (record: WebhookRecord) =>
  created({ data: presentWithSecret(record) }, { ...etagHeaders(record), ...locationHeaders(request, record.id) });

export const create = (config: WebhookConfig, db = createDb(config)) => {
  const rules = urlRulesOf(config);
  const schemas = webhookSchemas(rules);
  const resolve = resolveOf(config);
  return httpHandler(async (request) => {
    const input = validate(schemas.store, bodyOf(request));
    // Only events the key could read in the feed (absent: all it may read), checked before DNS is asked.
    const key = requestKeyOf(request.event.requestContext?.authorizer);
    const webhook = { ...input, events: subscribedPatterns(input.events, key.scopes) };
    await assertDeliverable(webhook.name, rules, resolve);
    return answer(await storeWebhook(db, request.owner, webhook, key, idempotent(request)), replyFor(request));
  }, webhookErrors);
};

/** Its settings' loader: the shared ones and the webhooks' own (`lib/webhooks/settings.ts`). */
export const load = loadWebhookConfig;

export const handler = atColdStart(create, load);
