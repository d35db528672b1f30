import { atColdStart, type Config } from '#lib/config.ts';
import { showSpace } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => ok({ data: presentSpace(await showSpace(db, request.owner, request.id())) }));

export const handler = atColdStart(create);
