/**
 * The API's response shapes, defined once: the presenters (`lib/resources.ts`) are typed by these schemas,
 * and the OpenAPI document (`lib/openapi`) is generated from them. Objects are strict, so a field that is
 * not described here is also not in the document, and the contract tests reject a response that carries one.
 * Handlers import only the inferred types, so none of this is bundled into a Lambda.
 */
import * as v from 'valibot';
import { EVENT_RETENTION_DAYS, eventTypes } from '#lib/data/event-item.ts';
import { ID_DIGITS, MAX_ID } from '#lib/data/keys.ts';
import { PAGES_MAX_BYTES } from '#lib/edge/record.ts';
import { kinds } from '#lib/kinds.ts';
import { DNS_NAME_MAX, VERIFICATION_PREFIX } from '#lib/verification.ts';
import { EVENTS_PER_PAGE } from './events.ts';
import { PER_PAGE_OPTIONS } from './list.ts';
import { COLORS, SPACE_NAME_MAX } from './spaces.ts';

const integer = (min: number, max?: number) =>
  max === undefined
    ? v.pipe(v.number(), v.integer(), v.minValue(min))
    : v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

/**
 * A string of at most `max` characters. JSON Schema counts characters (code points) like the request
 * schemas do; valibot's `maxLength` counts UTF-16 units, so the limit is stated for the document only.
 */
const text = (max: number, description: string) => v.pipe(v.string(), v.metadata({ maxLength: max, description }));

const id = v.pipe(integer(1, MAX_ID), v.description('Allocated per owner, increasing, never reused.'));
const timestamp = (what: string) => v.pipe(v.string(), v.isoTimestamp(), v.description(`${what}, ISO 8601 in UTC.`));
const url = (description?: string) =>
  description === undefined ? v.pipe(v.string(), v.url()) : v.pipe(v.string(), v.url(), v.description(description));
/** The description goes on the whole value, not on the non-null branch only. */
const nullable = <Schema extends v.GenericSchema>(schema: Schema, description: string) =>
  v.pipe(v.nullable(schema), v.description(description));
/** A page as stored, its href: ASCII, so a domain's two take at most `PAGES_MAX_BYTES` characters together. */
const page = (description: string) =>
  nullable(
    v.pipe(url(), v.metadata({ maxLength: PAGES_MAX_BYTES })),
    `Absolute http(s) URL ${description}, as the URL standard writes it (its href: ASCII, the host in punycode, the rest percent-encoded), or null.`,
  );

export const spaceSchema = v.strictObject({
  id,
  name: text(SPACE_NAME_MAX, 'Unique per owner, ignoring case.'),
  color: v.pipe(integer(COLORS.min, COLORS.max), v.description('Color code.')),
  created_at: timestamp('When the space was stored'),
  updated_at: timestamp('When the space last changed'),
});

export const domainSchema = v.strictObject({
  id,
  name: text(
    DNS_NAME_MAX,
    'Lowercase ASCII hostname (Unicode names in punycode); active under at most one owner at a time.',
  ),
  unicode_name: text(
    DNS_NAME_MAX,
    'The name in Unicode (`bücher.de` for `xn--bcher-kva.de`); for ASCII names, the name.',
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
        v.picklist(['certificate_failed', 'name_in_use', 'pages_too_large']),
        v.description(
          '`certificate_failed`: CloudFront could not issue the certificate (the name stopped pointing at the ' +
            'edge, or a CAA record forbids Amazon); `name_in_use`: another CloudFront distribution or tenant ' +
            'holds the name; `pages_too_large`: the pages do not fit the edge (domains stored before pages were ' +
            'measured).',
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
            "`ALIAS`: the name answered addresses rather than a CNAME (a zone apex, where a CNAME is not allowed): your DNS provider's ALIAS, ANAME or flattened CNAME to the value.",
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
        "visitors to the edge (at a zone apex, use your DNS provider's ALIAS or ANAME to the same host: the " +
        "record then shows as `ALIAS`, found when every address the name answers is one of the edge's). " +
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
  index_page: page('of the index page'),
  not_found_page: page('to redirect to when a page is not found'),
  created_at: timestamp('When the domain was stored'),
  updated_at: timestamp('When the domain last changed'),
});

export const deletedSchema = v.strictObject({
  id,
  object: v.picklist(kinds),
  deleted: v.literal(true),
  status: v.literal(200),
});

export const listLinksSchema = v.strictObject({
  first: url('The first page.'),
  last: url('The last page.'),
  prev: nullable(url(), 'The previous page; null on the first.'),
  next: nullable(url(), 'The next page, with a cursor; null on the last.'),
});

export const listMetaSchema = v.strictObject({
  current_page: integer(1),
  from: nullable(integer(1), 'Position of the first item on this page; null when empty.'),
  last_page: integer(1),
  path: url('The list URL without its query.'),
  // The list query's options (the parser types the value as a plain number).
  per_page: v.pipe(integer(1), v.metadata({ enum: [...PER_PAGE_OPTIONS] })),
  to: nullable(integer(1), 'Position of the last item on this page; null when empty.'),
  total: v.pipe(integer(0), v.description('Items matching the search.')),
  next_cursor: nullable(v.string(), 'Opaque cursor of the next page; null on the last.'),
});

/** The list envelope around any resource. */
export const listSchema = <Item extends v.GenericSchema>(item: Item) =>
  v.strictObject({ data: v.array(item), links: listLinksSchema, meta: listMetaSchema, status: v.literal(200) });

/** The envelope of one resource (show, store, update). */
export const singleSchema = <Item extends v.GenericSchema>(item: Item) => v.strictObject({ data: item });

/** One change of one resource, as the feed lists it (and the event bus carries it, with the owner). */
const eventOf = (kind: 'space' | 'domain', resource: v.GenericSchema, what: string) =>
  v.strictObject({
    id: v.pipe(
      v.string(),
      v.regex(new RegExp(`^[0-9]{${ID_DIGITS}}$`)),
      v.description(
        'Increases by one with every change of the owner, in the order the changes committed (events from before gapless ids may have gaps).',
      ),
    ),
    type: v.picklist(eventTypes.filter((type) => type.startsWith(`${kind}.`))),
    created_at: timestamp('When the change committed'),
    data: v.pipe(resource, v.description(`The ${what} after the change; for a delete, its last state.`)),
  });

export const spaceEventSchema = eventOf('space', spaceSchema, 'space');
export const domainEventSchema = eventOf('domain', domainSchema, 'domain');
export const eventSchema = v.pipe(
  v.union([spaceEventSchema, domainEventSchema]),
  v.description(`A change: kept ${EVENT_RETENTION_DAYS} days.`),
);

export const eventListSchema = v.strictObject({
  data: v.array(eventSchema),
  links: v.strictObject({
    first: url('The oldest events.'),
    next: url(
      'Where to continue: follow it at once while `meta.has_more`, or later to poll for new events. Never null.',
    ),
  }),
  meta: v.strictObject({
    path: url('The feed URL without its query.'),
    per_page: integer(EVENTS_PER_PAGE.min, EVENTS_PER_PAGE.max),
    has_more: v.pipe(v.boolean(), v.description('More events are there already: follow `links.next` now.')),
  }),
  status: v.literal(200),
});

/** Every error answer: the handlers' (`lib/errors.ts`) and API Gateway's own (`lib/gateway-responses.ts`). */
export const errorSchema = v.strictObject({
  message: v.pipe(v.string(), v.description('What went wrong, safe to show to a user.')),
  status: v.pipe(integer(400, 599), v.description('The HTTP status, repeated.')),
});

export const validationErrorSchema = v.strictObject({
  message: v.pipe(v.string(), v.description('The first error message.')),
  errors: v.pipe(
    v.record(v.string(), v.array(v.string())),
    v.description('Messages by field name (`body` when no single field is at fault).'),
  ),
  status: v.literal(422),
});

export type Space = v.InferOutput<typeof spaceSchema>;
export type Domain = v.InferOutput<typeof domainSchema>;
export type Deleted = v.InferOutput<typeof deletedSchema>;
export type EventList = v.InferOutput<typeof eventListSchema>;
export type ListEnvelope<Resource> = Omit<v.InferOutput<ReturnType<typeof listSchema>>, 'data'> & { data: Resource[] };
export type ErrorBody = v.InferOutput<typeof errorSchema>;
export type ValidationErrorBody = v.InferOutput<typeof validationErrorSchema>;
