import { atColdStart, type Config } from '#lib/config.ts';
import { createCursorSigner } from '#lib/cursor.ts';
import { listDeliveries } from '#lib/data/deliveries.ts';
import { showWebhook } from '#lib/data/webhooks.ts';
import { createDb } from '#lib/dynamodb.ts';
import { deliveryPage } from '#lib/http/deliveries.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentDelivery } from '#lib/resources/webhooks/present.ts';
import { parseListQuery } from '#lib/schemas/list.ts';

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

export const handler = atColdStart(create);
