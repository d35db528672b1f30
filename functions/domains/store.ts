import { atColdStart, type Config } from '#lib/config.ts';
import { type DomainItem, storeDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { created, httpHandler } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { presentDomain } from '#lib/resources.ts';
import { storeDomainSchema } from '#lib/schemas/domains.ts';
import { validate } from '#lib/schemas/validate.ts';

/** The answer to a store, also recorded with the write for a retry with the same Idempotency-Key. */
const reply = (item: DomainItem) => created({ data: presentDomain(item) }, etagHeaders(item));

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const input = validate(storeDomainSchema, request.body());
    return reply(await storeDomain(db, request.owner, input, idempotent(request, reply)));
  });

export const handler = atColdStart(create);
