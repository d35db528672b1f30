/**
 * A domain's status, and whether the edge serves it. Free of imports, so that presenting a domain
 * (`lib/feed/present.ts`, which the change feed's write path uses for events) does not import the data layer that
 * writes it.
 */
export type DomainStatus = 'pending' | 'active';

/**
 * Where an active domain stands with the edge (docs/deployment.md, "What `serving` says"):
 * - `waiting_for_dns`: its name does not point at the edge yet, so no CloudFront tenant exists (CloudFront
 *   refuses to create one with a managed certificate before that);
 * - `provisioning`: its tenant exists, its certificate is not issued yet or the tenant not yet deployed;
 * - `active`: visitors get HTTPS and its redirects;
 * - `failed`: it cannot be served until the owner acts (`ServingFailure` says why).
 */
export type ServingState = 'waiting_for_dns' | 'provisioning' | 'active' | 'failed';

/**
 * Why an active domain is not served, in terms the owner can act on: its certificate could not be issued
 * (the name stopped pointing at the edge, or CAA records forbid Amazon's CA); its name is held by another
 * CloudFront resource (another distribution's tenant or alias, in this account or another); its pages do not
 * fit the edge's store (only domains stored before the API measured them); the service has no room for a new
 * domain now (a quota is full: the stores' bytes, tenants or certificates per account), which the service itself
 * retries (the hourly re-check), so the owner need not act.
 */
export type ServingFailure = 'certificate_failed' | 'name_in_use' | 'pages_too_large' | 'capacity';

/** What the edge sync found for a host: a state, and for `failed` its reason. */
export type Serving = { state: Exclude<ServingState, 'failed'> } | { state: 'failed'; failure: ServingFailure };

/**
 * An active domain's serving as stored. A domain the sync has not looked at yet waits for DNS, unless its
 * CNAME was found.
 */
export function servingOf(item: {
  serving?: ServingState;
  servingFailure?: ServingFailure;
  check?: { route?: string };
}): Serving {
  const stored = item.serving;
  if (stored === 'failed') return { state: 'failed', failure: item.servingFailure ?? 'certificate_failed' };
  return { state: stored ?? (item.check?.route === 'found' ? 'provisioning' : 'waiting_for_dns') };
}

/** Whether two serving findings are the same (state and reason). */
export const sameServing = (a: Serving, b: Serving): boolean =>
  a.state === b.state && (a.state !== 'failed' || b.state !== 'failed' || a.failure === b.failure);
