import { createDb } from '#lib/data/dynamodb.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { type ApiRequest, answer, created, httpHandler, locationHeaders } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { validate } from '#lib/http/validate.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { storeSpaceSchema } from '#lib/spaces/api/fields.ts';
import { presentSpace } from '#lib/spaces/api/present.ts';
import { type SpaceRecord, storeSpace } from '#lib/spaces/data/spaces.ts';

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

export const handler = atColdStart(create, loadConfig);
