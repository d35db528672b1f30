/**
 * The DNS records a domain's owner creates, and what a check found for each: the TXT record that proves the
 * domain (`lib/verification.ts`) and the record that routes its visitors to the stage's edge (a CNAME to the
 * edge host name; at a zone apex, where a CNAME is not allowed, a provider's ALIAS/ANAME flattening to the same
 * addresses). Pure: the lookups are given (`lib/dns/resolver.ts`), the rules live here.
 */
import { holdsToken, type TxtLookup } from '#lib/verification.ts';

/** `found`: as required; `missing`: nothing at the name; `wrong`: something else at the name. */
export type RecordStatus = 'found' | 'missing' | 'wrong';

/**
 * What DNS holds for a domain's records (`lib/dns/records.ts`): the TXT lookup at its verification name, and
 * the routing record's status (absent: DNS did not answer for it). Throws a 503 error when the TXT lookup
 * gets no answer.
 */
export type LookupRecords = (name: string) => Promise<{ txt: TxtLookup; route?: RecordStatus }>;

/** What a routing lookup found at a name: its CNAME target, or else its IPv4 addresses. */
export type RouteLookup = { cname: string | null; addresses: readonly string[] };

/**
 * The statuses one check found. `route` is absent when DNS did not answer for it, `txt` for a domain with no
 * TXT record to check (stored before verification existed): the last status stands.
 */
export type RecordsCheck = { txt?: RecordStatus; route?: RecordStatus };

/** How long the TXT record may stay missing from an active domain before it returns to `pending`. */
export const TXT_GRACE_MS = 7 * 24 * 3_600_000;

/** How often active domains' records are checked again (the schedule, `infra/constructs/domain-checks.ts`). */
export const RECHECK_INTERVAL_MS = 3_600_000;

const hostKey = (name: string) => name.toLowerCase().replace(/\.$/, '');

export function txtStatus(lookup: TxtLookup, token: string): RecordStatus {
  if (lookup.kind === 'none') return 'missing';
  return holdsToken(lookup.values, token) ? 'found' : 'wrong';
}

/**
 * A CNAME must name the edge host. A name with addresses and no CNAME is flattened (ALIAS, ANAME): found when
 * one of its addresses is one of the edge's, as both resolve to the same CloudFront addresses.
 */
export function routeStatus(lookup: RouteLookup, edgeHostname: string, edgeAddresses: readonly string[]): RecordStatus {
  if (lookup.cname !== null) return hostKey(lookup.cname) === hostKey(edgeHostname) ? 'found' : 'wrong';
  if (lookup.addresses.length === 0) return 'missing';
  return lookup.addresses.some((address) => edgeAddresses.includes(address)) ? 'found' : 'wrong';
}

/** What a domain keeps of its checks: the last statuses, and since when its TXT record has been missing. */
export type CheckState = { txt?: RecordStatus; route?: RecordStatus; txtMissingSince?: string };

/**
 * The state after a check at `now`: the new statuses (a route DNS did not answer keeps the last), and the time
 * the TXT record went missing, kept while it stays missing (`wrong` counts: the token is not there).
 */
export function afterCheck(state: CheckState, check: RecordsCheck, now: string): CheckState {
  const txt = check.txt ?? state.txt;
  const route = check.route ?? state.route;
  const missingSince =
    check.txt === undefined
      ? state.txtMissingSince
      : check.txt === 'found'
        ? undefined
        : (state.txtMissingSince ?? now);
  return {
    ...(txt ? { txt } : {}),
    ...(route ? { route } : {}),
    ...(missingSince ? { txtMissingSince: missingSince } : {}),
  };
}

/** Whether an active domain's TXT record has been missing for the whole grace period at `now`. */
export const graceOver = (state: CheckState, now: string): boolean =>
  state.txtMissingSince !== undefined && Date.parse(now) - Date.parse(state.txtMissingSince) >= TXT_GRACE_MS;
