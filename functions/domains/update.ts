import { createDb } from '#lib/data/dynamodb.ts';
import { pageErrors } from '#lib/domains/api/errors.ts';
import { updateDomainSchema } from '#lib/domains/api/fields.ts';
import { presentDomain } from '#lib/domains/api/present.ts';
import { type DomainRecord, showDomain, updateDomain } from '#lib/domains/data/domains.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { validateChanges } from '#lib/http/validate.ts';
import type { EdgeHost } from '#lib/kind-module.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';

/** The answer to an update, made from the write's result (a retry with the same Idempotency-Key gets it again, from the recorded result). */
const replyFor = (edge: EdgeHost) => (item: DomainRecord) => ok({ data: presentDomain(item, edge) }, etagHeaders(item));

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) => {
  const reply = replyFor(edgeHostOf(config));
  return httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateDomainSchema, bodyOf(request), () => showDomain(db, request.owner, id));
    return answer(await updateDomain(db, request.owner, id, changes, writeOptions(request)), reply);
  }, pageErrors);
};

export const handler = atColdStart(create, loadConfig);
