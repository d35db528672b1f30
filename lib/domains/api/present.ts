/** A domain as the API shows it, from its record: what the owner must publish in DNS, and whether the edge serves it. */
import type { DomainRecord } from '#lib/domains/data/domains.ts';
import { displayName } from '#lib/domains/rules/idn.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import { PAGES_MAX_BYTES } from '#lib/edge/rules/entry.ts';
import { type Serving, type ServingFailure, servingOf } from '#lib/edge/rules/serving.ts';
import { type EdgeHost, shownFields } from '#lib/kind-module.ts';
import { storedPage } from '#lib/platform/urls.ts';
import { domainStoredNames } from './fields.ts';
import type { Domain } from './schema.ts';

/**
 * The records the owner creates, with what the last check found: the TXT record that proves the domain (none
 * for domains stored before verification existed) and the record that routes its visitors to the edge: a
 * CNAME to the edge host name, or, where the name answered addresses rather than a CNAME (a zone apex), an
 * ALIAS to the routing endpoint. A Route 53 alias targets an AWS resource or a record of its own hosted zone,
 * not a stage's own `edge.hostname` in another zone; a provider's ALIAS/ANAME flattens either. Before any check
 * kept statuses, an active domain's TXT record was found when it was verified.
 */
function recordsOf(item: DomainRecord, edge: EdgeHost): Domain['records'] {
  const check = item.check ?? {};
  const token = item.verificationToken;
  const txtBefore = item.status === 'active' && item.verifiedAt !== undefined ? 'found' : 'missing';
  return [
    ...(token === undefined
      ? []
      : [{ type: 'TXT' as const, name: verificationName(item.name), value: token, status: check.txt ?? txtBefore }]),
    {
      type: check.flattened ? ('ALIAS' as const) : ('CNAME' as const),
      name: item.name,
      value: check.flattened ? (edge.edgeRoutingEndpoint ?? edge.edgeHostname) : edge.edgeHostname,
      status: check.route ?? 'missing',
    },
  ];
}

/** What the owner does about a domain the edge cannot serve. */
const servingFailures: Record<ServingFailure, (edge: EdgeHost) => string> = {
  certificate_failed: ({ edgeHostname }) =>
    `The certificate could not be issued: point the name at ${edgeHostname}, allow amazon.com in any CAA record, then verify again.`,
  name_in_use: () => 'Another CloudFront distribution holds this name: remove it there, then verify again.',
  pages_too_large: () =>
    `Shorten index_page or not_found_page: together they may take ${PAGES_MAX_BYTES} bytes as ASCII URLs.`,
  capacity: () => 'The service is at capacity for new domains; it will retry.',
};

function servingFields(item: DomainRecord, edge: EdgeHost): Pick<Domain, 'serving' | 'serving_error'> {
  const serving: Serving | { state: 'pending' } = item.status === 'active' ? servingOf(item) : { state: 'pending' };
  const failure = serving.state === 'failed' ? serving.failure : undefined;
  return {
    serving: serving.state,
    serving_error: failure ? { code: failure, message: servingFailures[failure](edge) } : null,
  };
}

/** The name as a browser shows it, and why a label stays in punycode (`lib/domains/rules/idn.ts`). */
function nameFields(name: string): Pick<Domain, 'unicode_name' | 'idn_warning'> {
  const { unicodeName, idnWarning } = displayName(name);
  return { unicode_name: unicodeName, idn_warning: idnWarning };
}

export const presentDomain = (item: DomainRecord, edge: EdgeHost): Domain => ({
  id: item.id,
  name: item.name,
  ...nameFields(item.name),
  status: item.status,
  ...servingFields(item, edge),
  records: recordsOf(item, edge),
  // Domains stored before verification existed have no record to publish.
  verification: item.verificationToken
    ? { type: 'TXT', name: verificationName(item.name), value: item.verificationToken }
    : null,
  verified_at: item.verifiedAt ?? null,
  last_checked_at: item.lastCheckedAt ?? null,
  ...shownFields(domainStoredNames, item),
  created_at: item.createdAt,
  updated_at: item.updatedAt,
});

/**
 * A domain as an older event answered it: its pages as they are shown now (`storedPage`), and, from before
 * domains showed their records and serving, given both from what it holds (its status and verification record;
 * nothing was checked or served yet as far as it tells).
 */
export function presentAnsweredDomain(answered: unknown, edge: EdgeHost): unknown {
  if (!answered || typeof answered !== 'object') return answered;
  const domain: Domain = {
    ...(answered as Domain),
    index_page: storedPage((answered as Domain).index_page),
    not_found_page: storedPage((answered as Domain).not_found_page),
  };
  if ('records' in answered) return domain;
  const txtFound = domain.status === 'active' && domain.verified_at !== null;
  const { verification } = domain;
  return {
    ...domain,
    // Its CNAME was never checked (missing, below): an active domain waits for it, as `servingOf` reads it.
    serving: domain.status === 'active' ? 'waiting_for_dns' : 'pending',
    serving_error: null,
    records: [
      ...(verification ? [{ ...verification, status: txtFound ? 'found' : 'missing' }] : []),
      { type: 'CNAME', name: domain.name, value: edge.edgeHostname, status: 'missing' },
    ],
  };
}
