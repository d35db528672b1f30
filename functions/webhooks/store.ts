import { requestKeyOf } from '#lib/auth/request-key.ts';
import { atColdStart } from '#lib/config.ts';
import { storeWebhook, type WebhookRecord } from '#lib/data/webhooks.ts';
import { createDb } from '#lib/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { type ApiRequest, answer, created, httpHandler, locationHeaders } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { validate } from '#lib/http/validate.ts';
import { assertDeliverable, urlRulesOf } from '#lib/resources/webhooks/destination.ts';
import { webhookErrors } from '#lib/resources/webhooks/errors.ts';
import { webhookSchemas } from '#lib/resources/webhooks/fields.ts';
import { presentWithSecret } from '#lib/resources/webhooks/present.ts';
import { resolveOf } from '#lib/webhooks/delivery.ts';
import { subscribedPatterns } from '#lib/webhooks/event-patterns.ts';
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
