import { createDb } from '#lib/data/dynamodb.ts';
import { createCursorSigner } from '#lib/http/cursor.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { parseListQuery } from '#lib/schemas/list.ts';
import { deliveryPage } from '#lib/webhooks/api/deliveries.ts';
import { presentDelivery } from '#lib/webhooks/api/present.ts';
import { listDeliveries } from '#lib/webhooks/data/deliveries.ts';
import { showWebhook } from '#lib/webhooks/data/webhooks.ts';

/** Newest first; `per_page` and `cursor` as on the other lists. Another owner's webhook is a 404. */
export const create = (config: Config, db = createDb(config)) => {
  const cursors = createCursorSigner(config);
  return httpHandler(async (request) => {
    const id = request.id();
    await showWebhook(db, request.owner, id);
    const page = deliveryPage(request, id, parseListQuery(request.query()), cursors);
    const found = await listDeliveries(db, request.owner, id, page.query);
    return ok(page.envelope(found.deliveries.map(presentDelivery), found.next));
  });
};

export const handler = atColdStart(create, loadConfig);
