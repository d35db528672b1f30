import { atColdStart, type Config } from '#lib/config.ts';
import { showSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { representation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources/spaces/present.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const item = await showSpace(db, request.owner, request.id());
    return representation(request, item, () => ({ data: presentSpace(item) }));
  });

export const handler = atColdStart(create);
