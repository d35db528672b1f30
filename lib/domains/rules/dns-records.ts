/**
 * The DNS records a domain's owner creates, and what a check found for each: the TXT record that proves the
 * domain (`lib/domains/rules/verification.ts`) and the record that routes its visitors to the stage's edge (a CNAME to the
 * edge host name; at a zone apex, where a CNAME is not allowed, a provider's ALIAS/ANAME flattening to the same
 * addresses). Pure: the lookups are given (`lib/dns/resolver.ts`), the rules live here.
 */

import type { RouteLookup, TxtLookup } from '#lib/dns/rules/answers.ts';
import { holdsToken } from '#lib/domains/rules/verification.ts';
import type { ServingState } from '#lib/edge/rules/serving.ts';

/** `found`: as required; `missing`: nothing at the name; `wrong`: something else at the name. */
export type RecordStatus = 'found' | 'missing' | 'wrong';

/**
 * What a routing lookup found: the status, and whether the name answers addresses rather than a CNAME (a zone
 * apex, whose DNS provider flattens an ALIAS or ANAME record to the edge's addresses).
 */
export type RouteCheck = { status: RecordStatus; flattened: boolean };

/**
 * What DNS holds for a domain's records (`lib/domains/lookups.ts`): the TXT lookup at its verification name, and
 * the routing record's check (absent: DNS did not answer for it). Throws a 503 error when the TXT lookup
 * gets no answer.
 */
export type LookupRecords = (name: string) => Promise<{ txt: TxtLookup; route?: RouteCheck }>;

/**
 * The statuses one check found. `route` is absent when DNS did not answer for it, `txt` for a domain with no
 * TXT record to check (stored before verification existed): the last status stands. `flattened` goes with
 * `route`.
 */
export type RecordsCheck = { txt?: RecordStatus; route?: RecordStatus; flattened?: boolean };

/** How long the TXT record may stay missing from an active domain before it returns to `pending`. */
export const TXT_GRACE_MS = 7 * 24 * 3_600_000;

/** How often active domains' records are checked again: hourly, once they are served (or failed, or older). */
export const RECHECK_INTERVAL_MS = 3_600_000;

/**
 * How often a domain is checked while it waits for its CNAME or its certificate, in the first days after it
 * became active: what an owner who just published the CNAME waits at most before the edge looks. The schedule
 * (`infra/constructs/domain-recheck.ts`) runs this often, so a domain is checked within it of being due.
 */
export const FAST_RECHECK_INTERVAL_MS = 300_000;

/** How long after activation a domain waiting for the edge is checked at the fast interval (then hourly). */
export const FAST_RECHECK_WINDOW_MS = 72 * 3_600_000;

/** The interval to an active domain's next check, from where it stands with the edge and when it became active. */
export function recheckIntervalMs(serving: ServingState, verifiedAt: string | undefined, now: string): number {
  const waiting = serving === 'waiting_for_dns' || serving === 'provisioning';
  const young = verifiedAt !== undefined && Date.parse(now) - Date.parse(verifiedAt) < FAST_RECHECK_WINDOW_MS;
  return waiting && young ? FAST_RECHECK_INTERVAL_MS : RECHECK_INTERVAL_MS;
}

const hostKey = (name: string) => name.toLowerCase().replace(/\.$/, '');

export function txtStatus(lookup: TxtLookup, token: string): RecordStatus {
  if (lookup.kind === 'none') return 'missing';
  return holdsToken(lookup.values, token) ? 'found' : 'wrong';
}

/**
 * A CNAME must name the edge host. A name with addresses and no CNAME is flattened (an ALIAS or ANAME at a zone
 * apex): found when every one of its addresses is one of the edge's, as CloudFront itself requires of a name
 * before it creates the name's tenant (docs/deployment.md, "Apex names").
 */
export function routeStatus(lookup: RouteLookup, edgeHostname: string, edgeAddresses: readonly string[]): RecordStatus {
  if (lookup.cname !== null) return hostKey(lookup.cname) === hostKey(edgeHostname) ? 'found' : 'wrong';
  if (lookup.addresses.length === 0) return 'missing';
  return lookup.addresses.every((address) => edgeAddresses.includes(address)) ? 'found' : 'wrong';
}

/** The check of a routing lookup: its status, and whether it answered addresses (flattened). */
export const routeCheck = (
  lookup: RouteLookup,
  edgeHostname: string,
  edgeAddresses: readonly string[],
): RouteCheck => ({
  status: routeStatus(lookup, edgeHostname, edgeAddresses),
  flattened: lookup.cname === null && lookup.addresses.length > 0,
});

/**
 * What a domain keeps of its checks: the last statuses (and whether the routing record was flattened), and
 * since when its TXT record has been missing.
 */
export type CheckState = { txt?: RecordStatus; route?: RecordStatus; flattened?: boolean; txtMissingSince?: string };

/**
 * The state after a check at `now`: the new statuses (a route DNS did not answer keeps the last), and the time
 * the TXT record went missing, kept while it stays missing (`wrong` counts: the token is not there).
 */
export function afterCheck(state: CheckState, check: RecordsCheck, now: string): CheckState {
  const txt = check.txt ?? state.txt;
  const route = check.route ?? state.route;
  const flattened = check.route === undefined ? state.flattened : check.flattened;
  const missingSince =
    check.txt === undefined
      ? state.txtMissingSince
      : check.txt === 'found'
        ? undefined
        : (state.txtMissingSince ?? now);
  return {
    ...(txt ? { txt } : {}),
    ...(route ? { route } : {}),
    ...(flattened ? { flattened } : {}),
    ...(missingSince ? { txtMissingSince: missingSince } : {}),
  };
}

/** Whether an active domain's TXT record has been missing for the whole grace period at `now`. */
export const graceOver = (state: CheckState, now: string): boolean =>
  state.txtMissingSince !== undefined && Date.parse(now) - Date.parse(state.txtMissingSince) >= TXT_GRACE_MS;
