import { atColdStart, type Config } from '#lib/config.ts';
import { verifyDomain } from '#lib/data/domains.ts';
import { createTxtResolver } from '#lib/dns/txt.ts';
import { createDb } from '#lib/dynamodb.ts';
import { rethrowVerificationMismatch } from '#lib/http/domain-errors.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources.ts';

/** No body: the domain's own verification record is looked up (DNS_RESOLVER, or the Lambda's resolver). */
export const create = (config: Config, db = createDb(config)) => {
  const { lookupTxt } = createTxtResolver({ servers: config.dnsServers, timeoutMs: config.dnsTimeoutMs });
  return httpHandler(async (request) => {
    const domain = await verifyDomain(db, lookupTxt, request.owner, request.id()).catch(rethrowVerificationMismatch);
    return ok({ data: presentDomain(domain) });
  });
};

export const handler = atColdStart(create);
