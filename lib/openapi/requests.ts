/**
 * Request bodies. The fields and which of them are required come from the valibot request schemas (their
 * JSON Schema skeleton, and what they answer for an empty body); the request schemas check with custom
 * code, so each field's type and limits are stated here from the constants those schemas use.
 */
import { type JsonSchema, toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { collectionNames, collections, type Kind } from '#lib/routes.ts';
import { PAGE_URL_MAX, storeDomainSchema, updateDomainSchema } from '#lib/schemas/domains.ts';
import { COLORS, SPACE_NAME_MAX, storeSpaceSchema, updateSpaceSchema } from '#lib/schemas/spaces.ts';
import { DNS_NAME_MAX, VERIFIABLE_NAME_MAX, VERIFICATION_PREFIX } from '#lib/verification.ts';

type Mode = 'store' | 'update';
type FieldDocs = (mode: Mode) => Record<string, JsonSchema>;

const unchanged = (mode: Mode) => (mode === 'update' ? ' Absent: unchanged.' : '');

const spaceFields: FieldDocs = (mode) => ({
  name: {
    type: 'string',
    minLength: 1,
    maxLength: SPACE_NAME_MAX,
    description: `Trimmed; unique per owner, ignoring case.${unchanged(mode)}`,
    examples: ['Marketing'],
  },
  color: {
    type: 'integer',
    minimum: COLORS.min,
    maximum: COLORS.max,
    description: `Color code; a form sends it as digits.${mode === 'store' ? '' : ' Absent or empty: unchanged.'}`,
    ...(mode === 'store' ? { default: COLORS.default } : {}),
    examples: [3],
  },
});

const pageField = (what: string, mode: Mode): JsonSchema => ({
  type: ['string', 'null'],
  maxLength: PAGE_URL_MAX,
  description:
    `Absolute http or https URL ${what}, not on the domain itself. ` +
    `An empty string (or null) means none${mode === 'update' ? ' and clears it; absent: unchanged' : ''}.`,
  examples: ['https://example.com/welcome'],
});

const domainFields: FieldDocs = (mode) => ({
  name: {
    type: 'string',
    minLength: 1,
    maxLength: DNS_NAME_MAX,
    description:
      'A DNS hostname with at least two labels. Trimmed and lowercased; a leading `http://` or `https://` and ' +
      'a trailing `/` are removed; Unicode names are stored in punycode, of at most ' +
      `${VERIFIABLE_NAME_MAX} characters so that the verification record (\`${VERIFICATION_PREFIX}.<name>\`) ` +
      'fits in DNS. Refused when this owner already has the name, or when it is active under another owner.',
    examples: ['example.com'],
  },
  index_page: pageField('of the index page', mode),
  not_found_page: pageField('to redirect to when a page is not found', mode),
});

/** Fields the schema requires: those it rejects in an empty body. */
function requiredFields(schema: v.GenericSchema): string[] {
  const issues = v.safeParse(schema, {}).issues ?? [];
  return [...new Set(issues.map((issue) => String(issue.path?.[0]?.key)))];
}

function bodySchema(schema: v.GenericSchema, docs: Record<string, JsonSchema>): JsonSchema {
  const skeleton = toJsonSchema(schema, { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' });
  const fields = Object.keys(skeleton.properties ?? {});
  const undocumented = fields.filter((field) => !(field in docs));
  if (undocumented.length > 0) throw new Error(`Request fields without documentation: ${undocumented.join(', ')}`);
  const required = requiredFields(schema);
  return {
    type: 'object',
    description: 'Other fields are ignored.',
    properties: Object.fromEntries(fields.map((field) => [field, docs[field] as JsonSchema])),
    ...(required.length > 0 ? { required } : {}),
  };
}

/** Each kind's request schemas and the documentation of their fields. */
const bodies: Record<Kind, { store: v.GenericSchema; update: v.GenericSchema; fields: FieldDocs }> = {
  space: { store: storeSpaceSchema, update: updateSpaceSchema, fields: spaceFields },
  domain: { store: storeDomainSchema, update: updateDomainSchema, fields: domainFields },
};

/** Request body schemas by component name: `Store<Title>Request` and `Update<Title>Request` per collection. */
export function requestSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    collectionNames.flatMap((name) => {
      const { kind, title } = collections[name];
      const { store, update, fields } = bodies[kind];
      return [
        [`Store${title}Request`, bodySchema(store, fields('store'))],
        [`Update${title}Request`, bodySchema(update, fields('update'))],
      ];
    }),
  );
}
