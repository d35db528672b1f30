/** What DNS answers the lookups the resolver makes (`lib/dns/resolver.ts`): facts, read by the rules that judge them. */

/** What a TXT lookup found at a name: each record's chunks joined, or nothing (NXDOMAIN, NODATA). */
export type TxtLookup = { kind: 'found'; values: string[] } | { kind: 'none' };

/** What a routing lookup found at a name: its CNAME target, or else its IPv4 addresses. */
export type RouteLookup = { cname: string | null; addresses: readonly string[] };
