/**
 * A domain's records as DNS holds them now: the TXT lookup at its verification name (a failure throws: a
 * verification cannot be decided without it) and the status of its routing record to the edge (a failure
 * leaves it unknown: the last status stands). Both are asked at once, under the resolver's bounds.
 */

import { DnsUnavailableError } from '#lib/dns/errors.ts';
import type { DnsResolver } from '#lib/dns/resolver.ts';
import { type LookupRecords, type RouteCheck, routeCheck } from '#lib/domains/rules/dns-records.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';

/** How a name routes to the edge host, or undefined when DNS did not answer. */
export function routeLookup(
  resolver: Pick<DnsResolver, 'lookupRoute' | 'lookupAddresses'>,
  edgeHostname: string,
): (name: string) => Promise<RouteCheck | undefined> {
  return async (name) => {
    try {
      const found = await resolver.lookupRoute(name);
      // Only a flattened record (addresses, no CNAME) is compared with the edge's own addresses.
      const edgeAddresses =
        found.cname === null && found.addresses.length > 0 ? await resolver.lookupAddresses(edgeHostname) : [];
      return routeCheck(found, edgeHostname, edgeAddresses);
    } catch (error) {
      if (error instanceof DnsUnavailableError) return undefined;
      throw error;
    }
  };
}

export function recordsLookup(resolver: DnsResolver, edgeHostname: string): LookupRecords {
  const route = routeLookup(resolver, edgeHostname);
  return async (name) => {
    const [txt, check] = await Promise.all([resolver.lookupTxt(verificationName(name)), route(name)]);
    return check ? { txt, route: check } : { txt };
  };
}
