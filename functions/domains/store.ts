import { atColdStart, type Config, presentationStage } from '#lib/config.ts';
import { type DomainRecord, storeDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { type ApiRequest, answer, created, httpHandler, locationHeaders } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { validate } from '#lib/http/validate.ts';
import { presentDomain, type Stage } from '#lib/resources.ts';
import { storeDomainSchema } from '#lib/schemas/domains.ts';

/**
 * The answer to a store (its version and where it is), also recorded with the write for a retry with the same
 * Idempotency-Key.
 */
const replyFor = (stage: Stage, request: ApiRequest) => (item: DomainRecord) =>
  created({ data: presentDomain(item, stage) }, { ...etagHeaders(item), ...locationHeaders(request, item.id) });

export const create = (config: Config, db = createDb(config)) => {
  const stage = presentationStage(config);
  return httpHandler(async (request) => {
    const reply = replyFor(stage, request);
    const input = validate(storeDomainSchema, request.body());
    return answer(await storeDomain(db, request.owner, input, idempotent(request)), reply);
  });
};

export const handler = atColdStart(create);
