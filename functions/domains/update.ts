import { atColdStart, type Config } from '#lib/config.ts';
import { showDomain, updateDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders, preconditions } from '#lib/http/conditional.ts';
import { rethrowPageLoop } from '#lib/http/domain-errors.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources.ts';
import { updateDomainSchema } from '#lib/schemas/domains.ts';
import { validateChanges } from '#lib/schemas/validate.ts';

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateDomainSchema, request.body(), () => showDomain(db, request.owner, id));
    const item = await updateDomain(db, request.owner, id, changes, preconditions(request)).catch(rethrowPageLoop);
    return ok({ data: presentDomain(item) }, etagHeaders(item));
  });

export const handler = atColdStart(create);
