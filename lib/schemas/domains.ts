import { domainToASCII } from 'node:url';
import * as v from 'valibot';
import { type PageProblem, pageHost, parsePage } from '#lib/urls.ts';
import { DNS_NAME_MAX, VERIFIABLE_NAME_MAX, VERIFICATION_PREFIX } from '#lib/verification.ts';
import { characterCount, type Encoding, label, loopMessage, maxCharacters, text } from './fields.ts';
import { optional, requestBody, required } from './request.ts';

export const PAGE_URL_MAX = 255;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Characters that make a URL, a port, a wildcard or free text rather than a hostname. */
const NOT_IN_HOSTNAME = /[\s/:*@?#\\%[\]]/u;

/** The name as written, without the `http(s)://` prefix and trailing `/` a user may paste with it. */
const bareDomainName = (input: string) =>
  input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '');

/** The stored form of a domain name: lowercase ASCII (punycode), or null if it is not a DNS hostname. */
export function normalizeDomainName(input: string): string | null {
  const bare = bareDomainName(input);
  if (bare === '' || characterCount(bare) > DNS_NAME_MAX || NOT_IN_HOSTNAME.test(bare)) return null;
  const ascii = domainToASCII(bare);
  if (ascii === '' || ascii.length > DNS_NAME_MAX) return null;
  const labels = ascii.split('.');
  const top = labels.at(-1) as string;
  if (labels.length < 2 || /^[0-9]+$/.test(top)) return null;
  return labels.every((part) => LABEL.test(part)) ? ascii : null;
}

/** Names longer than `VERIFIABLE_NAME_MAX` are valid in DNS, but `_ds-challenge.<name>` is not. */
export const tooLongToVerify =
  `The name field must not be greater than ${VERIFIABLE_NAME_MAX} characters in its ASCII (punycode) form, ` +
  `so that its verification record (${VERIFICATION_PREFIX}.<name>) fits in DNS's ${DNS_NAME_MAX}.`;

/** The domain's fields a client never writes (`lib/schemas/responses.ts`'s Domain, less the request's fields). */
export const DOMAIN_READ_ONLY = [
  'id',
  'name',
  'unicode_name',
  'status',
  'serving',
  'serving_error',
  'records',
  'verification',
  'verified_at',
  'last_checked_at',
  'created_at',
  'updated_at',
] as const;

const domainName = (encoding: Encoding) =>
  v.pipe(
    text('name', { encoding, name: true }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value as string;
      if (value === '') {
        addIssue({ message: 'The name field is required.' });
        return NEVER;
      }
      // The limit is on the name, not on the `https://` or `/` around it.
      if (characterCount(bareDomainName(value)) > DNS_NAME_MAX) {
        addIssue({ message: `The name field must not be greater than ${DNS_NAME_MAX} characters.` });
        return NEVER;
      }
      const normalized = normalizeDomainName(value);
      // A valid DNS name, but its verification record's name would not be: it could never become active.
      if (normalized !== null && normalized.length > VERIFIABLE_NAME_MAX) {
        addIssue({ message: tooLongToVerify });
        return NEVER;
      }
      if (normalized === null) {
        // A Unicode name within the limit may still grow past it in punycode: say so, not "invalid".
        const tooLong = domainToASCII(bareDomainName(value)).length > DNS_NAME_MAX;
        addIssue({
          message: tooLong
            ? `The name field must not be greater than ${DNS_NAME_MAX} characters in its ASCII (punycode) form.`
            : 'The name field must be a valid domain name.',
        });
        return NEVER;
      }
      return normalized;
    }),
  );

/** What each way of not being a page answers: `The <field> field must <this>.` */
const pageProblems: Record<PageProblem, string> = {
  invalid: 'be a valid http or https URL',
  spaces: 'not contain spaces',
  credentials: 'not contain a user name or password',
};

/**
 * An absolute http(s) URL of at most `PAGE_URL_MAX` characters, parsed as the URL standard does (WHATWG,
 * Node's `URL`), without spaces, control characters or credentials; stored as its `href` (ASCII), so the edge's
 * `Location` is always valid (the data layer then checks that a domain's two hrefs fit the edge's value:
 * `lib/edge/record.ts`). Empty (or JSON null) means none.
 */
const pageUrl = (field: string) => (encoding: Encoding) =>
  v.pipe(
    text(field, { encoding, nullable: true }),
    maxCharacters(field, PAGE_URL_MAX),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (dataset.value === null) return null;
      const page = parsePage(dataset.value);
      if ('href' in page) return page.href;
      addIssue({ message: `The ${label(field)} field must ${pageProblems[page.problem]}.` });
      return NEVER;
    }),
  );

/** A missing name is required; missing pages are none. */
export const storeDomainBody = /* @__PURE__ */ requestBody({
  name: required(domainName),
  index_page: optional(pageUrl('index_page'), null),
  not_found_page: optional(pageUrl('not_found_page'), null),
});

export const storeDomainSchema = /* @__PURE__ */ v.pipe(
  storeDomainBody.schema,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { name, index_page, not_found_page } = dataset.value;
    for (const [field, url] of [
      ['index_page', index_page],
      ['not_found_page', not_found_page],
    ] as const) {
      if (url !== null && pageHost(url) === name) {
        addIssue({
          message: loopMessage(field),
          path: [{ type: 'object', origin: 'value', input: dataset.value, key: field, value: url }],
        });
      }
    }
  }),
  v.transform(({ name, index_page, not_found_page }) => ({
    name,
    indexPage: index_page,
    notFoundPage: not_found_page,
  })),
);

/**
 * The name is not accepted on update: it never changes (a form's is ignored, JSON's is a 422). Absent pages
 * stay, empty (or null) ones are cleared.
 */
export const updateDomainBody = /* @__PURE__ */ requestBody(
  { index_page: optional(pageUrl('index_page')), not_found_page: optional(pageUrl('not_found_page')) },
  { readOnly: DOMAIN_READ_ONLY },
);

export const updateDomainSchema = /* @__PURE__ */ v.pipe(
  updateDomainBody.schema,
  v.transform(({ index_page, not_found_page }) => ({ indexPage: index_page, notFoundPage: not_found_page })),
);
