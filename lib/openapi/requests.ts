/**
 * Request bodies, one schema per media type: JSON is strict (`additionalProperties: false`, JSON types), a
 * form is lenient (strings, other fields ignored). The fields, which are required and which the resource has
 * but a client never writes come from the request schemas (`lib/schemas`, `requestBody`); the request schemas
 * check with custom code, so each field's type, limits and patterns are stated here from the constants and
 * the character rules those schemas use (`characterClass` turns a rule into the pattern's ranges).
 *
 * The patterns describe what to send: the canonical form. The service also takes a name padded with spaces,
 * a domain name in upper case or with `https://` and `/` around it, a color with leading zeros; it refuses
 * nothing these patterns allow, but for what they cannot state (a Unicode domain name's IDNA rules and
 * punycode length, a page on the domain itself, a name already taken), which the descriptions say.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import { collectionNames, collections, type Kind } from '#lib/routes.ts';
import { PAGE_URL_MAX, storeDomainBody, updateDomainBody } from '#lib/schemas/domains.ts';
import { characterClass, type Encoding, NOT_IN_NAMES, NOT_IN_TEXT } from '#lib/schemas/fields.ts';
import { COLORS, SPACE_NAME_MAX, storeSpaceBody, updateSpaceBody } from '#lib/schemas/spaces.ts';
import { DNS_NAME_MAX, VERIFIABLE_NAME_MAX, VERIFICATION_PREFIX } from '#lib/verification.ts';

type Mode = 'store' | 'update';
type FieldDocs = (mode: Mode, encoding: Encoding) => Record<string, JsonSchema>;

let classes: { names: string; text: string } | undefined;
/** The characters names and any text may not hold, as character class ranges (computed once: ~50 ms). */
const forbidden = () => {
  classes ??= { names: characterClass(NOT_IN_NAMES), text: characterClass(NOT_IN_TEXT) };
  return classes;
};

/** No character of the class anywhere (the rest of the pattern then need not repeat it). */
const without = (characterClass: string) => `(?![\\s\\S]*[${characterClass}])`;

/** A space's name: no control or invisible character, not blank, nothing to trim at either end. */
export const spaceNamePattern = () => `^${without(forbidden().names)}\\S(?:[\\s\\S]*\\S)?$`;

/**
 * A domain name: labels of letters, digits and hyphens (any non-ASCII letter for an IDN), 1 to 63 characters,
 * no hyphen at either end, at least two labels, the last not a number (digits, or `0x` and hex digits, which
 * the URL standard reads as an IPv4 address); no control or invisible character.
 */
export function domainNamePattern(): string {
  const letter = 'A-Za-z0-9\\u0080-\\u{10FFFF}';
  const label = `[${letter}](?:[${letter}-]{0,61}[${letter}])?`;
  return `^${without(`${forbidden().names}\\s`)}(?:${label}\\.)+(?![0-9]+$|0[Xx][0-9A-Fa-f]*$)${label}$`;
}

/** A page: `http://` or `https://` (any case), a host, then a path, query or fragment; no space or control character. */
export function pagePattern(): string {
  const text = forbidden().text;
  return `^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#${text}]+(?:[/?#][^\\s${text}]*)?$`;
}

const unchanged = (mode: Mode) => (mode === 'update' ? ' Absent: unchanged.' : '');

const NAME_CHARACTERS =
  'No control characters, and no invisible or bidirectional control characters: no format character ' +
  '(`\\p{Cf}`: zero-width space and joiners, word joiner, byte order mark, soft hyphen, bidi embeddings, ' +
  'overrides, isolates and marks, tag characters), no line or paragraph separator, no Hangul filler (so no ' +
  'emoji joined by U+200D either).';

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
    `Absolute http or https URL ${what}, not on the domain itself (which the schema cannot state: a 422 on ` +
    `the field); it must parse as a URL (WHATWG). An empty string${encoding === 'json' ? ' or null' : ''} ` +
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
      'A DNS hostname with at least two labels, the last not a number, stored lowercased; Unicode names are checked by IDNA ' +
      `(UTS #46) and stored in punycode, of at most ${VERIFIABLE_NAME_MAX} characters in that form so that ` +
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
