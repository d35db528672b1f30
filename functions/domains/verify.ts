import { atColdStart, type Config, presentationStage } from '#lib/config.ts';
import { type DomainRecord, verifyDomain } from '#lib/data/domains.ts';
import { recordsLookup } from '#lib/dns/records.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { presentDomain, type Stage } from '#lib/resources.ts';

/** The answer to a verification, also recorded with the activation for a retry with the same Idempotency-Key. */
const replyFor = (stage: Stage) => (item: DomainRecord) => ok({ data: presentDomain(item, stage) }, etagHeaders(item));

/** No body: the domain's own records are looked up (DNS_RESOLVER, or the Lambda's resolver). */
export const create = (config: Config, db = createDb(config)) => {
  const resolver = configuredResolver(config);
  const stage = presentationStage(config);
  const lookupRecords = recordsLookup(resolver, stage.edgeHostname);
  const reply = replyFor(stage);
  return httpHandler(async (request) => {
    const options = idempotent(request);
    return answer(await verifyDomain(db, lookupRecords, request.owner, request.id(), options), reply);
  });
};

export const handler = atColdStart(create);
