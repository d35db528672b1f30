import { atColdStart, type Config } from '#lib/config.ts';
import { showWebhook } from '#lib/data/webhooks.ts';
import { createDb } from '#lib/dynamodb.ts';
import { representation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { presentWebhook } from '#lib/resources/webhooks/present.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const record = await showWebhook(db, request.owner, request.id());
    return representation(request, record, () => ({ data: presentWebhook(record) }));
  });

export const handler = atColdStart(create);
