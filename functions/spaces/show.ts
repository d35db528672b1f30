import { createDb } from '#lib/data/dynamodb.ts';
import { representation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { presentSpace } from '#lib/spaces/api/present.ts';
import { showSpace } from '#lib/spaces/data/spaces.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const item = await showSpace(db, request.owner, request.id());
    return representation(request, item, () => ({ data: presentSpace(item) }));
  });

export const handler = atColdStart(create, loadConfig);
