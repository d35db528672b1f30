/**
 * A domain as the API shows it: the response schema the presenter (`present.ts`) is typed by and the document
 * is generated from, and its examples. Functions import only its type.
 */
import * as v from 'valibot';
import { IDN_WARNINGS } from '#lib/domains/rules/idn-display.ts';
import { DNS_NAME_MAX, VERIFICATION_PREFIX, verificationName } from '#lib/domains/rules/verification.ts';
import { PAGES_MAX_BYTES } from '#lib/edge/rules/entry.ts';
import { id, nullable, text, timestamp, url } from '#lib/schemas/values.ts';

/** A page as stored, its href: ASCII, so a domain's two take at most `PAGES_MAX_BYTES` characters together. */
const shownPage = (description: string) =>
  nullable(
    v.pipe(url(), v.metadata({ maxLength: PAGES_MAX_BYTES })),
    `Absolute http(s) URL ${description}, as the URL standard writes it (its href: ASCII, the host in punycode, the rest percent-encoded), or null.`,
  );

/** The domain as the API shows it. */
export const domainSchema = v.strictObject({
  id,
  name: text(
    DNS_NAME_MAX,
    'Lowercase ASCII hostname (Unicode names in punycode); active under at most one owner at a time.',
  ),
  unicode_name: text(
    DNS_NAME_MAX,
    'The name as a browser shows it: in Unicode (`bücher.de` for `xn--bcher-kva.de`), but a label that could ' +
      'pass for another name stays in punycode, as browsers show it (`idn_warning` says why); for ASCII names, ' +
      'the name.',
  ),
  idn_warning: nullable(
    v.picklist(IDN_WARNINGS),
    'Why `unicode_name` shows a label in punycode rather than in Unicode, or null when it shows every label in ' +
      'Unicode (and for ASCII names). Decided as Chromium decides what its address bar shows, on UTS #39: ' +
      '`mixed_scripts`: letters of scripts that may not mix (Latin with Cyrillic, as in `exаmple.com` with a ' +
      'Cyrillic `а`; only Chinese, Japanese and Korean mix with ASCII Latin); `whole_script_confusable`: letters ' +
      'of one script that all look like Latin ones (`аррӏе.com`, Cyrillic), under a TLD not of that script; ' +
      '`mixed_numbers`: digits of two numbering systems; `restricted_characters`: a character that is no letter, ' +
      'mark or digit of a script in common modern use (an emoji, a symbol, a historic script), or a combining mark ' +
      'repeated; `invalid_punycode`: a punycode label that does not decode to a name IDNA takes (stored before ' +
      'such labels were refused). The name is still stored and served as it is: only how it is shown differs.',
  ),
  status: v.pipe(
    v.picklist(['pending', 'active']),
    v.description(
      '`pending` until verified: a pending domain does not reserve its name, other owners may store it too. ' +
        '`active` once `POST /domains/{id}/verify` found the TXT record: the name is then held across all owners ' +
        'until the domain is deleted, or until its TXT record has been missing for 7 days (checked hourly), when ' +
        'it returns to `pending`. Only active domains are served.',
    ),
  ),
  serving: v.pipe(
    v.picklist(['pending', 'waiting_for_dns', 'provisioning', 'active', 'failed']),
    v.description(
      'Whether the edge serves the domain to its visitors (docs/deployment.md, "What serving says"). `pending` ' +
        'while the domain is pending. Once active: `waiting_for_dns` until its name points at the edge (the ' +
        'CNAME record in `records`, or at a zone apex an ALIAS): no CloudFront tenant exists yet; ' +
        '`provisioning` while CloudFront issues its certificate and deploys its tenant (minutes; locally at ' +
        'once); `active` when visitors get HTTPS and its redirects; `failed` when it cannot be served until ' +
        'you act, with the reason in `serving_error`. A domain waiting for its DNS or certificate is checked ' +
        'again every 5 minutes for 72 hours after it became active, then hourly; `POST /domains/{id}/verify` ' +
        'checks at once.',
    ),
  ),
  serving_error: nullable(
    v.strictObject({
      code: v.pipe(
        v.picklist(['certificate_failed', 'name_in_use', 'pages_too_large', 'capacity']),
        v.description(
          '`certificate_failed`: CloudFront could not issue the certificate (the name stopped pointing at the ' +
            'edge, or a CAA record forbids Amazon); `name_in_use`: another CloudFront distribution or tenant ' +
            'holds the name; `pages_too_large`: the pages do not fit the edge (domains stored before pages were ' +
            'measured); `capacity`: the service is at capacity for new domains (a quota is full) and retries by ' +
            'itself (hourly), nothing for the owner to do.',
        ),
      ),
      message: v.pipe(v.string(), v.description('What to do about it, safe to show to a user.')),
    }),
    'Why the edge cannot serve the domain, when `serving` is `failed`; null otherwise.',
  ),
  records: v.pipe(
    v.array(
      v.strictObject({
        type: v.pipe(
          v.picklist(['TXT', 'CNAME', 'ALIAS']),
          v.description(
            "`ALIAS`: the name answered addresses rather than a CNAME (a zone apex, where a CNAME is not allowed): a Route 53 alias record, or your DNS provider's ALIAS, ANAME or flattened CNAME, to the value (the stage's routing endpoint).",
          ),
        ),
        name: text(DNS_NAME_MAX, 'The name to create the record at.'),
        value: v.pipe(v.string(), v.description('The value the record must hold.')),
        status: v.pipe(
          v.picklist(['found', 'missing', 'wrong']),
          v.description(
            'What the last check found (verification, then hourly while active): `found` as required, ' +
              '`missing` nothing at the name (or not checked yet), `wrong` another value.',
          ),
        ),
      }),
    ),
    v.description(
      `Every DNS record to create. The TXT record at \`${VERIFICATION_PREFIX}.<name>\` proves the domain (keep it: ` +
        'an active domain whose TXT record stays missing for 7 days returns to `pending`); the CNAME routes its ' +
        'visitors to the edge (at a zone apex, an alias, ALIAS or ANAME record to the routing endpoint: the ' +
        "record then shows as `ALIAS` with that value, found when every address the name answers is one of the edge's). " +
        'Domains stored before verification existed have only the CNAME.',
    ),
  ),
  verification: nullable(
    v.strictObject({
      type: v.literal('TXT'),
      name: text(
        DNS_NAME_MAX,
        `Where to publish the record: \`${VERIFICATION_PREFIX}.\` followed by the domain's name.`,
      ),
      value: v.pipe(v.string(), v.description('The token the record must hold; random, unique per domain.')),
    }),
    'The DNS record that proves the domain is yours; null for domains stored before verification existed (they are active).',
  ),
  verified_at: nullable(timestamp('When the domain became active'), 'Null while pending (and for older domains).'),
  last_checked_at: nullable(
    timestamp(
      'When a verification last looked the records up, or the hourly re-check of an active domain found a ' +
        "record's status changed (a check that finds what the last one found changes nothing, `updated_at` " +
        'and the ETag included)',
    ),
    'Null until the first verification that got an answer from DNS.',
  ),
  index_page: shownPage('of the index page'),
  not_found_page: shownPage('to redirect to when a page is not found'),
  created_at: timestamp('When the domain was stored'),
  updated_at: timestamp(
    'When the domain as shown here last changed, whoever changed it: an update of its pages, a verification or ' +
      'check that recorded what it found (`last_checked_at`, `records`), the edge (`serving`), a return to ' +
      'pending. It moves with the ETag, and with each `domain.updated` or `domain.verified` event',
  ),
});

export type Domain = v.InferOutput<typeof domainSchema>;

const at = '2025-01-15T09:30:00.000Z';
const later = '2025-02-03T16:05:12.345Z';
const token = 'q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU';

export const domainExample: Domain = {
  id: 4,
  name: 'example.com',
  unicode_name: 'example.com',
  idn_warning: null,
  status: 'active',
  serving: 'active',
  serving_error: null,
  records: [
    { type: 'TXT', name: verificationName('example.com'), value: token, status: 'found' },
    { type: 'CNAME', name: 'example.com', value: 'edge.example.net', status: 'found' },
  ],
  verification: { type: 'TXT', name: verificationName('example.com'), value: token },
  verified_at: later,
  last_checked_at: later,
  // Pages are on another host than the domain's own name: the service refuses a page that would loop.
  index_page: 'https://www.example.com/welcome',
  not_found_page: null,
  created_at: at,
  updated_at: later,
};

/** What a store answers: a domain is pending, with the records to publish. */
export const storedDomainExample: Domain = {
  ...domainExample,
  status: 'pending',
  serving: 'pending',
  records: domainExample.records.map((record) => ({ ...record, status: 'missing' as const })),
  verified_at: null,
  last_checked_at: null,
  updated_at: domainExample.created_at,
};
