import { atColdStart, type Config } from '#lib/config.ts';
import { storeSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { created, httpHandler } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources.ts';
import { storeSpaceSchema } from '#lib/schemas/spaces.ts';
import { validate } from '#lib/schemas/validate.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const input = validate(storeSpaceSchema, request.body());
    return created({ data: presentSpace(await storeSpace(db, request.owner, input)) });
  });

export const handler = atColdStart(create);
