import { createDb } from '#lib/data/dynamodb.ts';
import { representation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { presentWebhook } from '#lib/webhooks/api/present.ts';
import { showWebhook } from '#lib/webhooks/data/webhooks.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const record = await showWebhook(db, request.owner, request.id());
    return representation(request, record, () => ({ data: presentWebhook(record) }));
  });

export const handler = atColdStart(create, loadConfig);
