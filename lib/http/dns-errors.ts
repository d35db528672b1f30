/**
 * DNS that gave no answer to a lookup a request needs (a domain's verification, a webhook host's addresses),
 * said to the client: a 503 with `Retry-After` whose message says DNS could not be reached or could not answer,
 * and which resolver was asked. The resolver is named only as the operator configured it (`DNS_RESOLVER`:
 * locally, a server the developer runs); the system's (Lambda's) resolver is "the DNS resolver", with nothing
 * about the network it sits on. The kinds whose functions ask DNS give it to their handler's error mapping.
 */
import { DnsUnavailableError } from '#lib/dns/errors.ts';
import { type HttpError, ServiceUnavailableError } from '#lib/http/errors.ts';

function resolverOf(servers: readonly string[] | undefined): string {
  if (servers === undefined || servers.length === 0) return 'the DNS resolver';
  return servers.length === 1 ? `the DNS resolver at ${servers[0]}` : `the DNS resolvers at ${servers.join(', ')}`;
}

/** An answer that came, saying it has none: the resolver is reached, DNS behind it failed. */
const ANSWERED: Record<string, string> = { ESERVFAIL: 'SERVFAIL', EREFUSED: 'REFUSED' };

/** What the client reads: which lookup, which resolver, what happened, and that a retry may work. */
export function dnsUnavailableMessage({ code, lookupName, servers }: DnsUnavailableError): string {
  const resolver = resolverOf(servers);
  const answered = ANSWERED[code];
  if (answered) {
    return `DNS could not answer: ${resolver} answered ${answered} to the lookup of ${lookupName}. Please retry.`;
  }
  return `DNS could not be reached: ${resolver} did not answer the lookup of ${lookupName}. Please retry.`;
}

export function dnsErrors(error: unknown): HttpError | null {
  if (!(error instanceof DnsUnavailableError)) return null;
  return new ServiceUnavailableError(error.retryAfterSeconds, dnsUnavailableMessage(error));
}
