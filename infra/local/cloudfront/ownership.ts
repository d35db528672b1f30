/**
 * CloudFront's domain ownership check on a tenant created (or given domains) with a managed certificate whose
 * validation token CloudFront serves (`ValidationTokenHost: cloudfront`): the domain must already route to
 * CloudFront, or the request is refused with 400 `InvalidArgument` "The provided Domain Name is not valid. Could
 * not verify Domain Name ownership. It may not be pointing to a valid CloudFront resource."
 * - the error and its message: https://github.com/aws/aws-sdk-php/issues/3129 ("createDistributionTenant doesn't
 *   allow to add a domain name with external CNAME");
 * - "Because a DistributionTenant verifies domain ownership at create time, the DNS record must resolve before
 *   the tenant is created": subdomain → CNAME to the connection group's routing endpoint, apex → A records to
 *   the group's (Anycast) addresses — README of https://github.com/aws-samples/sample-aws-cf-saas-manager-vanity-url-redirect;
 * - "For cloudfront, CloudFront will automatically serve the validation token. Choose this mode if you can point
 *   the domain's DNS to CloudFront immediately." (API Reference, ManagedCertificateRequest).
 * Not documented, chosen here: the group's addresses are what DNS answers for its routing endpoint, and a DNS
 * lookup that fails (timeout, SERVFAIL) counts as not pointing.
 */
import type { DnsResolver } from '#lib/dns/resolver.ts';
import { controlPlane } from './errors.ts';
import { type ConnectionGroup, domainKey } from './model.ts';

export type OwnershipDns = Pick<DnsResolver, 'lookupRoute' | 'lookupAddresses'>;

export const OWNERSHIP_MESSAGE =
  'The provided Domain Name is not valid. Could not verify Domain Name ownership. It may not be pointing to a valid CloudFront resource.';

/** Whether `domain` routes to `group`: a CNAME to its routing endpoint, or only addresses of that endpoint. */
export async function pointsAt(dns: OwnershipDns, domain: string, group: ConnectionGroup): Promise<boolean> {
  try {
    const route = await dns.lookupRoute(domain);
    if (route.cname !== null) return domainKey(route.cname) === domainKey(group.routingEndpoint);
    if (route.addresses.length === 0) return false;
    const endpointAddresses = await dns.lookupAddresses(group.routingEndpoint);
    return route.addresses.every((address) => endpointAddresses.includes(address));
  } catch {
    return false;
  }
}

/** Throws CloudFront's `InvalidArgument` for the first domain that does not route to `group`. */
export async function verifyOwnership(dns: OwnershipDns, domains: readonly string[], group: ConnectionGroup) {
  for (const domain of domains) {
    if (!(await pointsAt(dns, domain, group))) throw controlPlane.invalidArgument(OWNERSHIP_MESSAGE);
  }
}
