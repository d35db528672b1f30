import { createDb } from '#lib/data/dynamodb.ts';
import { createCursorSigner } from '#lib/http/cursor.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { parseListQuery } from '#lib/schemas/list.ts';
import { presentWebhook } from '#lib/webhooks/api/present.ts';
import { listWebhooks } from '#lib/webhooks/data/webhooks.ts';

/** Sorted and searched by name, a webhook's name being its URL. */
export const create = (config: Config, db = createDb(config)) => {
  const cursors = createCursorSigner(config);
  return httpHandler(async (request) => {
    const params = parseListQuery(request.query());
    const page = listQueryFor(request, 'webhook', params, cursors);
    const result = await listWebhooks(db, request.owner, page.query);
    return ok(listEnvelope(request, params, page, result, presentWebhook));
  });
};

export const handler = atColdStart(create, loadConfig);
