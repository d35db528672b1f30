import { atColdStart, type Config } from '#lib/config.ts';
import { destroyDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { preconditions } from '#lib/http/conditional.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { deleted } from '#lib/resources.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    await destroyDomain(db, request.owner, id, preconditions(request));
    return ok(deleted('domain', id));
  });

export const handler = atColdStart(create);
