import { atColdStart, type Config } from '#lib/config.ts';
import { destroyWebhook } from '#lib/data/webhooks.ts';
import { createDb } from '#lib/dynamodb.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { deleted } from '#lib/resources/present.ts';

/** Its pending attempts find it gone and are dropped (`attemptDelivery`). */
const reply = (record: { id: number }) => ok(deleted('webhook', record.id));

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    return answer(await destroyWebhook(db, request.owner, id, writeOptions(request)), reply);
  });

export const handler = atColdStart(create);
