import { atColdStart, type Config } from '#lib/config.ts';
import { createCursorSigner } from '#lib/cursor.ts';
import { listWebhooks } from '#lib/data/webhooks.ts';
import { createDb } from '#lib/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { presentWebhook } from '#lib/resources/webhooks/present.ts';
import { parseListQuery } from '#lib/schemas/list.ts';

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

export const handler = atColdStart(create);
