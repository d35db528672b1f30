import { atColdStart, type Config, presentationStage } from '#lib/config.ts';
import { type DomainRecord, showDomain, updateDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { validateChanges } from '#lib/http/validate.ts';
import { presentDomain, type Stage } from '#lib/resources.ts';
import { updateDomainSchema } from '#lib/schemas/domains.ts';

/** The answer to an update, made from the write's result (a retry with the same Idempotency-Key gets it again, from the recorded result). */
const replyFor = (stage: Stage) => (item: DomainRecord) => ok({ data: presentDomain(item, stage) }, etagHeaders(item));

/** PUT and PATCH behave the same: partial, absent fields unchanged. If-Match makes the change conditional. */
export const create = (config: Config, db = createDb(config)) => {
  const reply = replyFor(presentationStage(config));
  return httpHandler(async (request) => {
    const id = request.id();
    const changes = await validateChanges(updateDomainSchema, request.body(), () => showDomain(db, request.owner, id));
    return answer(await updateDomain(db, request.owner, id, changes, writeOptions(request)), reply);
  });
};

export const handler = atColdStart(create);
