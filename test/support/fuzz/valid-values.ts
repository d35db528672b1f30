/**
 * Valid values, generated from the document's request schemas: by the patterns they state (each value a
 * pattern allows, as a schema-driven tool generates it, and curated ones: names in any script, the longest
 * valid values), and checked against the schema by ajv, the document's own judge.
 */
import fc from 'fast-check';
import { domainNamePattern } from '#lib/resources/domains/name.ts';
import { PAGE_URL_MAX, pagePattern } from '#lib/resources/domains/pages.ts';
import { spaceNamePattern } from '#lib/resources/spaces/fields.ts';
import { SPACE_NAME_MAX } from '#lib/resources/spaces/limits.ts';
import { FEED_CURSOR_PATTERN } from '#lib/schemas/events.ts';
import { characterClass, NOT_IN_NAMES } from '#lib/schemas/fields.ts';
import type { Schema } from '#test/support/fuzz/operations.ts';
import { LONGEST_DOMAIN } from '#test/support/fuzz/resources.ts';
import { resolveRef, schemaErrors } from '#test/support/openapi.ts';

/** Characters a name must not hold (controls, invisible and bidi controls), each one the service's class refuses. */
export const FORBIDDEN_IN_NAMES = (() => {
  const pattern = new RegExp(`[${characterClass(NOT_IN_NAMES)}]`, 'u');
  return [0x00, 0x09, 0x1b, 0x7f, 0x85, 0xad, 0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028]
    .concat([0x202a, 0x202e, 0x2060, 0x2066, 0x2069, 0x3164, 0xfeff, 0xffa0, 0xfff9, 0xe0001, 0xe0041])
    .map((code) => String.fromCodePoint(code))
    .filter((character) => pattern.test(character));
})();

const withoutForbidden = (value: string) => [...value].every((character) => !NOT_IN_NAMES.test(character));
const count = (value: string) => [...value].length;

/** Valid space names: ASCII words, any Unicode text (emoji, right-to-left, combining marks) the rules allow. */
const spaceName = fc
  .oneof(
    fc.constantFrom(
      'Marketing',
      'Ops',
      'Big Team',
      'فريق',
      'Équipe ❤️',
      '🚀🚀',
      'Cafe\u0301',
      '例え',
      'a'.repeat(SPACE_NAME_MAX),
    ),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: SPACE_NAME_MAX }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  )
  .map((value) => value.trim())
  .filter((value) => value !== '' && count(value) <= SPACE_NAME_MAX && withoutForbidden(value));

/** A hostname label: letters, digits and inner hyphens, in either case. */
const label = fc
  .tuple(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789'),
    fc.string({ unit: fc.constantFrom(...'abcxyz0189-'), maxLength: 20 }),
    fc.constantFrom(...'abcdefxyz0123456789'),
  )
  .map(([first, middle, last]) => `${first}${middle}${last}`);

/** Valid domain names: two to four labels, the last made of letters; now and then the longest. */
const domainLabels = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'net', 'org', 'example', 'de', 'Io'))
  .map(([labels, top]) => [...labels, top].join('.'));
const domainName = fc.oneof(
  { weight: 9, arbitrary: domainLabels },
  { weight: 1, arbitrary: fc.constant(LONGEST_DOMAIN) },
);

/** Valid pages: http(s) URLs as they are stored (their href), with a path, query or fragment, or the longest. */
const pageUrl = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
      .filter((value) => URL.canParse(value))
      .map((value) => new URL(value).href)
      .filter((value) => count(value) <= PAGE_URL_MAX),
  },
  { weight: 1, arbitrary: fc.constant(`https://www.example.org/${'p'.repeat(PAGE_URL_MAX - 24)}`) },
);

/**
 * Values of a pattern as a schema-driven tool generates them (Hypothesis' `from_regex`, fast-check's
 * `stringMatching`), besides the curated ones: every value a pattern allows must be taken.
 */
const fromPattern = (pattern: string, curated: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 3, arbitrary: curated }, { weight: 2, arbitrary: fc.stringMatching(new RegExp(pattern, 'u')) });

/** Generators for the patterns the document states, by the pattern itself. */
const byPattern: Record<string, fc.Arbitrary<string>> = {
  [spaceNamePattern()]: fromPattern(spaceNamePattern(), spaceName),
  [domainNamePattern()]: fromPattern(domainNamePattern(), domainName),
  [pagePattern()]: fromPattern(pagePattern(), pageUrl),
  [FEED_CURSOR_PATTERN]: fc.constantFrom('0', '000000000000'),
  '^[1-6]?$': fc.constantFrom('', '1', '2', '3', '4', '5', '6'),
};

/** A value valid for a JSON Schema of the kinds the document's requests use. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolveRef<Schema>(schema).value);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(arbitraryOf));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'string': {
      const known = schema.pattern === undefined ? undefined : byPattern[schema.pattern];
      if (schema.pattern !== undefined && !known) throw new Error(`No generator for the pattern ${schema.pattern}`);
      if (known) return known;
      if (schema.format === 'uri') return pageUrl;
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property)])),
        { requiredKeys: schema.required ?? [] },
      );
    }
    default:
      throw new Error(`No generator for the schema ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

/** A valid body: generated from the schema, and valid against it by ajv (the document's own judge). */
export const validBody = (body: { schema: Schema; pointer: string }) =>
  (arbitraryOf(body.schema) as fc.Arbitrary<Record<string, unknown>>).filter(
    (value) => schemaErrors(body.pointer, value) === null,
  );
