import { atColdStart, type Config } from '#lib/config.ts';
import { type SpaceRecord, storeSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { type ApiRequest, answer, created, httpHandler, locationHeaders } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { validate } from '#lib/http/validate.ts';
import { storeSpaceSchema } from '#lib/resources/spaces/fields.ts';
import { presentSpace } from '#lib/resources/spaces/present.ts';

/**
 * The answer to a store (its version and where it is), also recorded with the write for a retry with the same
 * Idempotency-Key.
 */
const replyTo = (request: ApiRequest) => (item: SpaceRecord) =>
  created({ data: presentSpace(item) }, { ...etagHeaders(item), ...locationHeaders(request, item.id) });

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const reply = replyTo(request);
    const input = validate(storeSpaceSchema, bodyOf(request));
    return answer(await storeSpace(db, request.owner, input, idempotent(request)), reply);
  });

export const handler = atColdStart(create);
