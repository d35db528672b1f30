import { atColdStart, type Config } from '#lib/config.ts';
import { storeDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { created, httpHandler } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources.ts';
import { storeDomainSchema } from '#lib/schemas/domains.ts';
import { validate } from '#lib/schemas/validate.ts';

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const input = validate(storeDomainSchema, request.body());
    return created({ data: presentDomain(await storeDomain(db, request.owner, input)) });
  });

export const handler = atColdStart(create);
