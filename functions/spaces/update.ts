import { atColdStart, type Config } from '#lib/config.ts';
import { type SpaceRecord, showSpace, updateSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { validateChanges } from '#lib/http/validate.ts';
import { updateSpaceSchema } from '#lib/resources/spaces/fields.ts';
import { presentSpace } from '#lib/resources/spaces/present.ts';

/** The answer to an update, made from the write's result (a retry with the same Idempotency-Key gets it again, from the recorded result). */
const reply = (item: SpaceRecord) => ok({ data: presentSpace(item) }, etagHeaders(item));

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateSpaceSchema, bodyOf(request), () => showSpace(db, request.owner, id));
    return answer(await updateSpace(db, request.owner, id, changes, writeOptions(request)), reply);
  });

export const handler = atColdStart(create);
