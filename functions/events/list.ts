import { createDb } from '#lib/data/dynamodb.ts';
import { listEvents } from '#lib/data/events.ts';
import { eventEnvelope, eventQueryFor } from '#lib/feed/page.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { validate } from '#lib/http/validate.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';
import { eventQuerySchema } from '#lib/schemas/events.ts';

/** The owner's changes, oldest first, after `after`; only those of the collections the key may read. */
export const create = (config: Config, db = createDb(config)) => {
  const edge = edgeHostOf(config);
  return httpHandler(async (request) => {
    const params = validate(eventQuerySchema, request.query());
    const page = await listEvents(db, request.owner, eventQueryFor(request, params));
    return ok(eventEnvelope(request, params, page, edge));
  });
};

export const handler = atColdStart(create, loadConfig);
