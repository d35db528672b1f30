/**
 * A domain's records as DNS holds them now: the TXT lookup at its verification name (a failure throws: a
 * verification cannot be decided without it) and the status of its routing record to the edge (a failure
 * leaves it unknown: the last status stands). Both are asked at once, under the resolver's bounds.
 */
import { type LookupRecords, routeStatus } from '#lib/domain-records.ts';
import { verificationName } from '#lib/verification.ts';
import { type DnsResolver, DnsUnavailableError } from './resolver.ts';

export function recordsLookup(resolver: DnsResolver, edgeHostname: string): LookupRecords {
  async function route(name: string) {
    try {
      const found = await resolver.lookupRoute(name);
      // Only a flattened record (addresses, no CNAME) is compared with the edge's own addresses.
      const edgeAddresses =
        found.cname === null && found.addresses.length > 0 ? await resolver.lookupAddresses(edgeHostname) : [];
      return routeStatus(found, edgeHostname, edgeAddresses);
    } catch (error) {
      if (error instanceof DnsUnavailableError) return undefined;
      throw error;
    }
  }
  return async (name) => {
    const [txt, status] = await Promise.all([resolver.lookupTxt(verificationName(name)), route(name)]);
    return status ? { txt, route: status } : { txt };
  };
}
