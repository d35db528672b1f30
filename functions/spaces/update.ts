import { atColdStart, type Config } from '#lib/config.ts';
import { type SpaceRecord, showSpace, updateSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { validateChanges } from '#lib/http/validate.ts';
import { presentSpace } from '#lib/resources.ts';
import { updateSpaceSchema } from '#lib/schemas/spaces.ts';

/** The answer to an update, made from the write's result (a retry with the same Idempotency-Key gets it again, from the recorded result). */
const reply = (item: SpaceRecord) => ok({ data: presentSpace(item) }, etagHeaders(item));

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateSpaceSchema, request.body(), () => showSpace(db, request.owner, id));
    return answer(await updateSpace(db, request.owner, id, changes, writeOptions(request)), reply);
  });

export const handler = atColdStart(create);
