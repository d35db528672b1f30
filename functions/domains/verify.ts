import { createDb } from '#lib/data/dynamodb.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import { verificationErrors } from '#lib/domains/api/errors.ts';
import { ReservedNameError, reservedBy, reservedNamesOf } from '#lib/domains/api/name.ts';
import { presentDomain } from '#lib/domains/api/present.ts';
import { type DomainRecord, verifyDomain } from '#lib/domains/data/domains.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import type { EdgeHost } from '#lib/kind-module.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';

/** The answer to a verification, also recorded with the activation for a retry with the same Idempotency-Key. */
const replyFor = (edge: EdgeHost) => (item: DomainRecord) => ok({ data: presentDomain(item, edge) }, etagHeaders(item));

/** No body: the domain's own records are looked up (DNS_RESOLVER, or the Lambda's resolver). */
export const create = (config: Config, db = createDb(config)) => {
  const resolver = configuredResolver(config);
  const edge = edgeHostOf(config);
  const lookup = recordsLookup(resolver, edge.edgeHostname);
  // A name stored before the stage kept its own host names is not verified (nor looked up): a 422 on name.
  const reserved = reservedNamesOf(edge.edgeHostname);
  const lookupRecords: typeof lookup = (name) => {
    const own = reservedBy(name, reserved);
    return own === undefined ? lookup(name) : Promise.reject(new ReservedNameError(own));
  };
  const reply = replyFor(edge);
  return httpHandler(async (request) => {
    const options = idempotent(request);
    return answer(await verifyDomain(db, lookupRecords, request.owner, request.id(), options), reply);
  }, verificationErrors);
};

export const handler = atColdStart(create, loadConfig);
