import { createDb } from '#lib/data/dynamodb.ts';
import { deleted } from '#lib/feed/present.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { destroyWebhook } from '#lib/webhooks/data/webhooks.ts';

/** Its pending attempts find it gone and are dropped (`attemptDelivery`). */
const reply = (record: { id: number }) => ok(deleted('webhook', record.id));

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    return answer(await destroyWebhook(db, request.owner, id, writeOptions(request)), reply);
  });

export const handler = atColdStart(create, loadConfig);
