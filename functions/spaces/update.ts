import { atColdStart, type Config } from '#lib/config.ts';
import { showSpace, updateSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders, preconditions } from '#lib/http/conditional.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources.ts';
import { updateSpaceSchema } from '#lib/schemas/spaces.ts';
import { validateChanges } from '#lib/schemas/validate.ts';

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateSpaceSchema, request.body(), () => showSpace(db, request.owner, id));
    const item = await updateSpace(db, request.owner, id, changes, preconditions(request));
    return ok({ data: presentSpace(item) }, etagHeaders(item));
  });

export const handler = atColdStart(create);
