/**
 * A domain's pages (its index page and its 404 page), defined once: what a request may send (an absolute
 * http(s) URL, stored as its WHATWG href), its pattern and description in the document.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { PAGES_MAX_BYTES } from '#lib/edge/rules/entry.ts';
import { type PageProblem, parsePage } from '#lib/platform/urls.ts';
import { type Encoding, label, maxCharacters, text } from '#lib/schemas/fields.ts';
import { ALNUM, labelPattern, PORT, URL_TEXT } from '#lib/schemas/patterns.ts';
import type { Mode } from '#lib/schemas/request.ts';

export const PAGE_URL_MAX = 255;

/** What each way of not being a page answers: `The <field> field must <this>.` */
const pageProblems: Record<PageProblem, string> = {
  invalid: 'be a valid http or https URL',
  spaces: 'not contain spaces',
  credentials: 'not contain a user name or password',
  invisible: 'name its host without invisible characters (the URL parser would drop them)',
};

/**
 * An absolute http(s) URL of at most `PAGE_URL_MAX` characters, parsed as the URL standard does (WHATWG,
 * Node's `URL`), without spaces, control characters or credentials; stored as its `href` (ASCII), so the edge's
 * `Location` is always valid (the data layer then checks that a domain's two hrefs fit the edge's value:
 * `lib/edge/rules/entry.ts`). Empty (or JSON null) means none.
 */
export const pageUrl = (field: string) => (encoding: Encoding) =>
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

/**
 * A page, in the form the service stores it (its WHATWG URL `href`): `http://` or `https://`, a host name, an
 * optional port, a path, then an optional query and fragment, of ASCII characters the URL standard keeps as
 * they are. Whatever matches parses, and is stored as sent (but for case, a default port or dot segments,
 * which only shorten it). The service also takes what it normalizes (a URL without a path, a Unicode host or
 * path, an IP address), which the description says.
 */
export function pagePattern(): string {
  const host = `(${labelPattern(ALNUM)}\\.)*${labelPattern('A-Za-z')}`;
  return (
    `^[Hh][Tt][Tt][Pp][Ss]?://${host}(:${PORT})?/[${URL_TEXT.path}]*` +
    `(\\?[${URL_TEXT.query}]*)?(#[${URL_TEXT.fragment}]*)?$`
  );
}

export const pageDoc = (what: string, mode: Mode, encoding: Encoding): JsonSchema => ({
  description:
    `Absolute http or https URL ${what}, parsed as the URL standard does (WHATWG): refused (422 on the field) ` +
    'when it does not parse, holds a space or a control character, carries a user name or password, or holds ' +
    'in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is ' +
    "stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters " +
    `percent-encoded, \`https://example.com\` as \`https://example.com/\`. At most ${PAGE_URL_MAX} characters as ` +
    `sent; in that form a domain's two pages may take ${PAGES_MAX_BYTES} bytes together (the edge keeps both in one ` +
    '1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a ' +
    'URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of ' +
    "the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a " +
    'verification of a domain whose page is on one is refused the same way): a 422 on the field, which the ' +
    `schema cannot state. An empty string${encoding === 'json' ? ' or null' : ''} ` +
    `means none${mode === 'update' ? ' and clears it; absent: unchanged' : ''}.`,
  anyOf: [
    { type: 'string', format: 'uri', maxLength: PAGE_URL_MAX, pattern: pagePattern() },
    { type: 'string', const: '' },
    ...(encoding === 'json' ? [{ type: 'null' as const }] : []),
  ],
  examples: ['https://www.example.com/welcome'],
});
