/**
 * Request bodies, one schema per media type: JSON is strict (`additionalProperties: false`, JSON types), a
 * form is lenient (strings, other fields ignored). The fields, which are required and which the resource has
 * but a client never writes come from the request schemas (`lib/schemas`, `requestBody`); the request schemas
 * check with custom code, so each field's type, limits and patterns are stated here from the constants and
 * the character rules those schemas use (`characterClass` turns a rule into the pattern's ranges).
 *
 * The patterns describe what to send: the form the service stores. It also takes a name padded with spaces,
 * a domain name in upper case, in Unicode or with `https://` and `/` around it, a color with leading zeros, a
 * page it normalizes (no path, a Unicode host); it refuses nothing these patterns (and lengths) allow, but for
 * what they cannot state (a page on the domain itself, a name already taken), which the descriptions say: a
 * tool that generates values from the patterns gets them accepted (`test/unit/request-schemas.test.ts`).
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import { PAGES_MAX_BYTES } from '#lib/edge/record.ts';
import { collectionNames, collections, type Kind } from '#lib/kinds.ts';
import { PAGE_URL_MAX, storeDomainBody, updateDomainBody } from '#lib/schemas/domains.ts';
import { characterClass, type Encoding, NOT_IN_NAMES } from '#lib/schemas/fields.ts';
import { COLORS, SPACE_NAME_MAX, storeSpaceBody, updateSpaceBody } from '#lib/schemas/spaces.ts';
import { DNS_NAME_MAX, VERIFIABLE_NAME_MAX, VERIFICATION_PREFIX } from '#lib/verification.ts';

type Mode = 'store' | 'update';
type FieldDocs = (mode: Mode, encoding: Encoding) => Record<string, JsonSchema>;

/**
 * The patterns are in JSON Schema's interoperable subset of regular expressions: characters (written as
 * themselves), character classes and their complements, ranges, quantifiers, groups, alternation and the
 * anchors; no lookaround, no `\u{…}`, no `\d`, `\s` or `\w` (whose meanings differ between engines), no
 * `(?:`. So ECMA-262 (with the `u` flag, as JSON Schema reads patterns), Python's `re` and other engines
 * compile them and agree on what they match (`test/contract/patterns.test.ts` compiles each one in JavaScript
 * and in Python and compares them); what a pattern of the subset cannot state is said in the description.
 */
let classes: { names: string; blank: string } | undefined;
/** Characters names may not hold, and the blank ones trimmed around them, as class ranges (computed once: ~50 ms). */
const forbidden = () => {
  classes ??= { names: characterClass(NOT_IN_NAMES), blank: characterClass(/\s/u) };
  return classes;
};

/**
 * A space's name: no control or invisible character anywhere, and no blank one (what the service trims, the
 * `\s` of ECMA-262, listed) at either end.
 */
export function spaceNamePattern(): string {
  const { names, blank } = forbidden();
  const edge = `[^${names}${blank}]`;
  return `^${edge}([^${names}]*${edge})?$`;
}

/** ASCII letters and digits, and with the hyphen: what a DNS label is made of. */
const ALNUM = 'A-Za-z0-9';
const LDH = `${ALNUM}\\-`;

/**
 * A DNS label of 1 to 63 letters, digits and hyphens, no hyphen at either end, and none in both its third and
 * fourth places (`xn--…` is punycode, which IDNA checks: such a label is accepted, not stated). `first` is what
 * may start it.
 */
function labelPattern(first: string): string {
  const a = `[${ALNUM}]`;
  const ldh = `[${LDH}]`;
  return (
    `[${first}](` +
    `${ldh}?${a}` + // 2 or 3 characters
    `|${ldh}(${a}${ldh}{0,59}${a}|-${a}(${ldh}{0,58}${a})?)` + // 4 to 63: the third a letter or digit, or a hyphen then one
    ')?'
  );
}

/**
 * A domain name in ASCII, as it is stored: labels of letters, digits and hyphens, at least two, the last
 * starting with a letter (so that it is no number, which the URL standard reads as an IPv4 address). A Unicode
 * name (an IDN), and its punycode form, are accepted too: IDNA decides, which a pattern cannot state.
 */
export function domainNamePattern(): string {
  return `^(${labelPattern(ALNUM)}\\.)+${labelPattern('A-Za-z')}$`;
}

/** A port, 0 to 65535. */
const PORT = '([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';

/** What the URL standard leaves as it is in a path, a query and a fragment (ASCII; no space, no quote, no `<>`). */
const URL_TEXT = {
  path: "!$%&'()*+,./0-9:;=@A-Z\\[\\]\\^_a-z|~\\-",
  query: '!$%&()*+,./0-9:;=?@A-Z\\[\\\\\\]\\^_`a-z{|}~\\-',
  fragment: "!#$%&'()*+,./0-9:;=?@A-Z\\[\\\\\\]\\^_a-z{|}~\\-",
};

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

const unchanged = (mode: Mode) => (mode === 'update' ? ' Absent: unchanged.' : '');

const NAME_CHARACTERS =
  'No control characters, and no invisible or bidirectional control characters: no format character ' +
  '(`\\p{Cf}`: zero-width space and joiners, word joiner, byte order mark, soft hyphen, bidi embeddings, ' +
  'overrides, isolates and marks, tag characters), no line or paragraph separator, no Hangul filler (so no ' +
  'emoji joined by U+200D either); the pattern lists them. Not a lone surrogate either (no Unicode text).';

const spaceFields: FieldDocs = (mode, encoding) => ({
  name: {
    type: 'string',
    minLength: 1,
    maxLength: SPACE_NAME_MAX,
    pattern: spaceNamePattern(),
    description: `Unique per owner, ignoring case. Spaces around it are trimmed (and not counted). ${NAME_CHARACTERS}${unchanged(mode)}`,
    examples: ['Marketing'],
  },
  color:
    encoding === 'json'
      ? {
          type: 'integer',
          minimum: COLORS.min,
          maximum: COLORS.max,
          description: `Color code, a JSON number (not a string, not null).${mode === 'store' ? '' : ' Absent: unchanged.'}`,
          ...(mode === 'store' ? { default: COLORS.default } : {}),
          examples: [3],
        }
      : {
          type: 'string',
          pattern: `^[${COLORS.min}-${COLORS.max}]?$`,
          description: `Color code, in digits (spaces and leading zeros are tolerated). Empty: ${mode === 'store' ? `the default, ${COLORS.default}` : 'unchanged'}.${unchanged(mode)}`,
          ...(mode === 'store' ? { default: String(COLORS.default) } : {}),
          examples: ['3'],
        },
});

const pageField = (what: string, mode: Mode, encoding: Encoding): JsonSchema => ({
  description:
    `Absolute http or https URL ${what}, parsed as the URL standard does (WHATWG): refused (422 on the field) ` +
    'when it does not parse, holds a space or a control character, or carries a user name or password. It is ' +
    "stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters " +
    `percent-encoded, \`https://example.com\` as \`https://example.com/\`. At most ${PAGE_URL_MAX} characters as ` +
    `sent; in that form a domain's two pages may take ${PAGES_MAX_BYTES} bytes together (the edge keeps both in one ` +
    '1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a ' +
    'URL without a path, a Unicode host or path, an IP address). Not on the domain itself (a 422 on the ' +
    `field, which the schema cannot state). An empty string${encoding === 'json' ? ' or null' : ''} ` +
    `means none${mode === 'update' ? ' and clears it; absent: unchanged' : ''}.`,
  anyOf: [
    { type: 'string', format: 'uri', maxLength: PAGE_URL_MAX, pattern: pagePattern() },
    { type: 'string', const: '' },
    ...(encoding === 'json' ? [{ type: 'null' as const }] : []),
  ],
  examples: ['https://www.example.com/welcome'],
});

const domainFields: FieldDocs = (mode, encoding) => ({
  name: {
    type: 'string',
    minLength: 1,
    maxLength: VERIFIABLE_NAME_MAX,
    pattern: domainNamePattern(),
    description:
      'A DNS hostname with at least two labels, stored lowercased. The pattern states the ASCII names: labels of ' +
      'letters, digits and hyphens (none at either end, nor in both the third and fourth places), the last ' +
      'starting with a letter. The service also takes a Unicode name (an IDN), checked by IDNA (UTS #46) and ' +
      'stored in punycode, or its punycode (`xn--`) form, and a last label that starts with a digit but is no ' +
      `number (\`example.1a\`); of at most ${VERIFIABLE_NAME_MAX} characters in ASCII so that ` +
      `the verification record (\`${VERIFICATION_PREFIX}.<name>\`) fits in DNS's ${DNS_NAME_MAX}. A leading ` +
      '`http://` or `https://`, a trailing `/` and spaces around it are tolerated and removed. ' +
      `${NAME_CHARACTERS} Refused when this owner already has the name, or when it is active under another owner.`,
    examples: ['example.com'],
  },
  index_page: pageField('of the index page', mode, encoding),
  not_found_page: pageField('to redirect to when a page is not found', mode, encoding),
});

/** What the document needs of a request schema: its fields, which are required, and the read-only ones. */
type Body = { fields: Record<string, { required: boolean }>; readOnly: readonly string[] };

/** Each kind's request bodies and the documentation of their fields. */
const bodies: Record<Kind, { store: Body; update: Body; fields: FieldDocs }> = {
  space: { store: storeSpaceBody, update: updateSpaceBody, fields: spaceFields },
  domain: { store: storeDomainBody, update: updateDomainBody, fields: domainFields },
};

function bodySchema(body: Body, docs: Record<string, JsonSchema>, encoding: Encoding): JsonSchema {
  const fields = Object.keys(body.fields);
  const undocumented = fields.filter((field) => !(field in docs));
  if (undocumented.length > 0) throw new Error(`Request fields without documentation: ${undocumented.join(', ')}`);
  const required = fields.filter((field) => body.fields[field]?.required);
  const readOnly = body.readOnly.map((field) => `\`${field}\``).join(', ');
  return {
    type: 'object',
    description:
      encoding === 'form'
        ? 'Other fields are ignored.'
        : 'Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.`' +
          (readOnly === ''
            ? ''
            : `, or for the resource's own fields, which a client never writes (${readOnly}), \`The <field> field cannot be changed.\``),
    properties: Object.fromEntries(fields.map((field) => [field, docs[field] as JsonSchema])),
    ...(required.length > 0 ? { required } : {}),
    ...(encoding === 'json' ? { additionalProperties: false } : {}),
  };
}

/** The component name of a request body's schema: `StoreSpaceRequest` (JSON), `StoreSpaceForm` (form). */
export const requestSchemaName = (mode: Mode, title: string, encoding: Encoding) =>
  `${mode === 'store' ? 'Store' : 'Update'}${title}${encoding === 'json' ? 'Request' : 'Form'}`;

/** Request body schemas by component name, per collection, mode and media type. */
export function requestSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    collectionNames.flatMap((name) => {
      const { kind, title } = collections[name];
      const entry = bodies[kind];
      return (['store', 'update'] as const).flatMap((mode) =>
        (['json', 'form'] as const).map((encoding) => [
          requestSchemaName(mode, title, encoding),
          bodySchema(entry[mode], entry.fields(mode, encoding), encoding),
        ]),
      );
    }),
  );
}
