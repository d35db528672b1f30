import { atColdStart, type Config } from '#lib/config.ts';
import { type DomainItem, verifyDomain } from '#lib/data/domains.ts';
import { createTxtResolver } from '#lib/dns/txt.ts';
import { createDb } from '#lib/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { presentDomain } from '#lib/resources.ts';

/** The answer to a verification, also recorded with the activation for a retry with the same Idempotency-Key. */
const reply = (item: DomainItem) => ok({ data: presentDomain(item) }, etagHeaders(item));

/** No body: the domain's own verification record is looked up (DNS_RESOLVER, or the Lambda's resolver). */
export const create = (config: Config, db = createDb(config)) => {
  const { lookupTxt } = createTxtResolver({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs });
  return httpHandler(async (request) => {
    const options = idempotent(request, reply);
    return reply(await verifyDomain(db, lookupTxt, request.owner, request.id(), options));
  });
};

export const handler = atColdStart(create);
