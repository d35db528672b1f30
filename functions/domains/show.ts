import { atColdStart, type Config } from '#lib/config.ts';
import { showDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => ok({ data: presentDomain(await showDomain(db, request.owner, request.id())) }));

export const handler = atColdStart(create);
