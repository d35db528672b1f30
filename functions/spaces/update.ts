import { atColdStart, type Config } from '#lib/config.ts';
import { showSpace, updateSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources.ts';
import { updateSpaceSchema } from '#lib/schemas/spaces.ts';
import { validateChanges } from '#lib/schemas/validate.ts';

/** PUT and PATCH behave the same: partial, absent fields unchanged. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateSpaceSchema, request.body(), () => showSpace(db, request.owner, id));
    return ok({ data: presentSpace(await updateSpace(db, request.owner, id, changes)) });
  });

export const handler = atColdStart(create);
