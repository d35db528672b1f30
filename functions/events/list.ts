import { atColdStart, type Config, edgeHostOf } from '#lib/config.ts';
import { listEvents } from '#lib/data/events.ts';
import { createDb } from '#lib/dynamodb.ts';
import { eventEnvelope, eventQueryFor } from '#lib/http/feed.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { validate } from '#lib/http/validate.ts';
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

export const handler = atColdStart(create);
