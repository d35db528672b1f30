import { createDb } from '#lib/data/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { validateChanges } from '#lib/http/validate.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { updateSpaceSchema } from '#lib/spaces/api/fields.ts';
import { presentSpace } from '#lib/spaces/api/present.ts';
import { type SpaceRecord, showSpace, updateSpace } from '#lib/spaces/data/spaces.ts';

/** The answer to an update, made from the write's result (a retry with the same Idempotency-Key gets it again, from the recorded result). */
const reply = (item: SpaceRecord) => ok({ data: presentSpace(item) }, etagHeaders(item));

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateSpaceSchema, bodyOf(request), () => showSpace(db, request.owner, id));
    return answer(await updateSpace(db, request.owner, id, changes, writeOptions(request)), reply);
  });

export const handler = atColdStart(create, loadConfig);
