/**
 * Valid values, generated from the document's request schemas: by the patterns they state (each value a
 * pattern allows, as a schema-driven tool generates it, and curated ones: names in any script, the longest
 * valid values), and checked against the schema by ajv, the document's own judge.
 */
import fc from 'fast-check';
import { domainNameFormsPattern, domainNamePattern } from '#lib/domains/api/name.ts';
import { PAGE_URL_MAX, pagePattern } from '#lib/domains/api/pages.ts';
import { NOT_IN_NAMES, refusedCharacters } from '#lib/platform/characters.ts';
import { FEED_CURSOR_PATTERN } from '#lib/schemas/events.ts';
import { characterClass } from '#lib/schemas/patterns.ts';
import { spaceNamePattern } from '#lib/spaces/api/fields.ts';
import { SPACE_NAME_MAX } from '#lib/spaces/api/limits.ts';
import { DESCRIPTION_MAX, descriptionPattern } from '#lib/webhooks/api/fields.ts';
import { WEBHOOK_URL_MAX_LENGTH } from '#lib/webhooks/rules/address.ts';
import type { Schema } from '#test/support/fuzz/operations.ts';
import { LONGEST_DOMAIN, tolerated } from '#test/support/fuzz/resources.ts';
import { PRIVATE_LABEL } from '#test/support/fuzz/webhook-urls.ts';
import { resolveRef, schemaErrors } from '#test/support/openapi.ts';
import { matching } from '#test/support/patterns.ts';

/**
 * Characters a name must not hold (controls, invisible and bidi controls, default-ignorable, private-use and
 * blank-looking ones), each one the document's class lists (the BMP's: the patterns cannot list the others).
 */
export const FORBIDDEN_IN_NAMES = (() => {
  const pattern = new RegExp(`[${characterClass(NOT_IN_NAMES)}]`, 'u');
  return [0x00, 0x09, 0x1b, 0x7f, 0x85, 0xa0, 0xad, 0x034f, 0x061c, 0x17b5, 0x180b, 0x180e, 0x200b, 0x200c]
    .concat([0x200d, 0x200e, 0x200f, 0x2028, 0x202a, 0x202e, 0x2060, 0x2066, 0x2069, 0x2800, 0x3164, 0xe000])
    .concat([0xfe00, 0xfe0f, 0xfeff, 0xffa0, 0xfff9, 0xe0001, 0xe0041])
    .map((code) => String.fromCodePoint(code))
    .filter((character) => pattern.test(character));
})();

const withoutForbidden = (value: string) => !refusedCharacters(value, 'name');

/**
 * Whether a value holds, beyond the BMP, what the descriptions say names refuse and the patterns cannot list
 * (private-use, tag and format characters, a presentation selector after a character that is no emoji): values
 * generated from a pattern that do are left out, as the description refuses them.
 */
export const refusedBeyondBmp = (value: string) => {
  const characters = [...value];
  return characters.some(
    (character, index) =>
      (character.codePointAt(0) as number) > 0xffff &&
      (NOT_IN_NAMES.test(character) ||
        (/^[\uFE0E\uFE0F]$/u.test(characters[index + 1] ?? '') && !/^\p{Extended_Pictographic}$/u.test(character))),
  );
};
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

/** Internationalized host names as IDNA writes them in Unicode (lower case, NFC): the document's `idn-hostname`. */
const idnHostname = fc.constantFrom('bücher.example', '例え.jp', 'пример.рф', 'ελληνικά.example', 'münchen.example');

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

/** The document's pattern of a webhook's URL: its scheme, in any case. */
const WEBHOOK_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://';

/** A public host name: LDH labels in either case, or written as the URL parser reads it (IDN, punycode, odd dots). */
const publicHost = fc.oneof(
  { weight: 6, arbitrary: domainLabels },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'bücher.example',
      'xn--bcher-kva.example',
      '例え.jp',
      'пример.рф',
      'hooks。example。com',
      'HOOKS.Example.COM',
      'hooks.example.com.',
      'hooks%2Eexample.com',
    ),
  },
);

/** Taken forms the description allows: a port, a path with a query, dot segments, a public IP address… */
const curatedWebhookUrls = fc.constantFrom(
  'https://bücher.example/straße?q=ä#teil',
  'https://xn--mnchen-3ya.example:8443/hooks',
  'https://hooks.example.com:443/default-port',
  'https://hooks.example.com/a/./b/../c?x=1&y=%C3%A4&y=2',
  'https://93.184.215.14/hook',
  'https://[2606:4700:4700::1111]:8443/hook',
  'https://@hooks.example.com/empty-user-information',
  'https:///hooks.example.com/extra-slash',
  'https://hooks.example.com\\backslash',
  'HTTPS://HOOKS.EXAMPLE.COM/UPPER',
  'https://hooks.example.com/trailing-space ',
  `https://hooks.example.com/${'p'.repeat(WEBHOOK_URL_MAX_LENGTH - 26)}`,
  // Within the limit as sent, longer once percent-encoded (as stored).
  `https://hooks.example.com/${'é'.repeat(400)}`,
);

/**
 * URLs the document's schema allows that the description says are refused (422 on `url`): plain HTTP, credentials,
 * internal names, private, loopback, link-local, metadata, multicast and reserved addresses in any spelling, port 0,
 * white space, and names the fuzzer's DNS server resolves to a private address.
 */
const refusedWebhookUrls = fc.oneof(
  fc.constantFrom(
    'http://hooks.example.com/plain',
    'https://user:secret@hooks.example.com/',
    'https://user@hooks.example.com/',
    'https://intranet/hook',
    'https://com./hook',
    'https://printer.local/hook',
    'https://db.internal/hook',
    'https://router.home.arpa/hook',
    'https://10.0.0.1/hook',
    'https://172.16.0.1/hook',
    'https://192.168.1.10/hook',
    'https://100.64.0.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://0.0.0.0/hook',
    'https://192.0.2.1/hook',
    'https://224.0.0.1/hook',
    'https://255.255.255.255/hook',
    'https://0x7f.1/hook',
    'https://2130706433/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:10.0.0.5]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[2001:db8::1]/hook',
    'https://[64:ff9b::a00:5]/hook',
    'https://[ff02::1]/hook',
    'https://hooks.example.com:0/hook',
    'https://hooks.example.com/a b',
    'https://hooks.exa\tmple.com/hook',
    // Loopback: taken only by the local stack (`WEBHOOK_LOCAL_LOOPBACK`), and over HTTP only there.
    'https://127.0.0.1/hook',
    'https://[::1]:8443/hook',
    'https://localhost/hook',
    'https://api.localhost:8443/hook',
    'http://127.0.0.1:8080/hook',
    'http://localhost:9/hook',
  ),
  fc
    .tuple(label, fc.constantFrom('', 'hooks.'))
    .map(([name, sub]) => `https://${sub}${PRIVATE_LABEL}${name.toLowerCase()}.example.com/hook`),
);

/**
 * Webhook URLs: the pattern states the scheme only, the rest is the description's (an absolute URL whose host is
 * public), so the values follow it rather than the pattern (whose other values are mostly hosts no DNS has):
 * `https://` in any case, a public name, maybe a port, a path, a query and a fragment; the curated forms; and now
 * and then one the description refuses (the oracle expects the 422: `webhook-urls.ts`).
 */
const webhookUrl = fc
  .oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.constantFrom('https', 'HTTPS', 'Https'),
          publicHost,
          fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
          fc.webPath(),
          fc.option(fc.webQueryParameters(), { nil: undefined }),
          fc.option(fc.webFragments(), { nil: undefined }),
        )
        .map(
          ([scheme, host, port, path, query, fragment]) =>
            `${scheme}://${host}${port === undefined ? '' : `:${port}`}${path}${query === undefined ? '' : `?${query}`}${fragment === undefined ? '' : `#${fragment}`}`,
        ),
    },
    { weight: 2, arbitrary: curatedWebhookUrls },
    { weight: 3, arbitrary: refusedWebhookUrls },
  )
  .filter((value) => URL.canParse(value.trim()) && count(value) <= WEBHOOK_URL_MAX_LENGTH);

/**
 * Values of a pattern as a schema-driven tool generates them (Hypothesis' `from_regex`, fast-check's
 * `stringMatching`), besides the curated ones: every value a pattern allows must be taken.
 */
const fromPattern = (pattern: string, curated: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 3, arbitrary: curated },
    {
      weight: 2,
      arbitrary: matching(pattern).filter((value) => !refusedBeyondBmp(value)),
    },
  );

/** Generators for the patterns the document states, by the pattern itself. */
/**
 * Free text, as a note holds it: ASCII, any script, emoji, several lines, padded, up to the longest (characters
 * as JSON Schema counts them: code points).
 */
const freeText = (min: number, max: number) =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 40) }) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: 12 }) },
      fc.constantFrom(
        'Our CRM',
        'Équipe ❤️',
        'فريق المبيعات',
        'Line one\nLine two',
        'Name\tValue',
        '  padded  ',
        '😀'.repeat(max),
        'x'.repeat(max),
      ),
    )
    .filter((value) => count(value) >= min && count(value) <= max);

/** A note on one line, as a webhook's description holds it: free text of the characters a name may hold. */
const note = freeText(0, DESCRIPTION_MAX).filter(withoutForbidden);

const byPattern: Record<string, fc.Arbitrary<string>> = {
  [spaceNamePattern()]: fromPattern(spaceNamePattern(), spaceName),
  [domainNamePattern()]: fromPattern(domainNamePattern(), domainName),
  [pagePattern()]: fromPattern(pagePattern(), pageUrl),
  [WEBHOOK_URL_PATTERN]: webhookUrl,
  // A webhook's description: one line of the characters a name may hold, at most its length.
  [descriptionPattern()]: fromPattern(descriptionPattern(), note).filter((value) => count(value) <= DESCRIPTION_MAX),
  // The forms of a domain name the description says are taken beyond the stored one (the pattern is loose).
  [domainNameFormsPattern()]: tolerated.name,
  [FEED_CURSOR_PATTERN]: fc.constantFrom('0', '000000000000'),
  '^[1-6]?$': fc.constantFrom('', '1', '2', '3', '4', '5', '6'),
};

/** A value valid for a JSON Schema of the kinds the document's requests use. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.$ref) return arbitraryOf(resolveRef<Schema>(schema).value);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) {
    // A form's list in one field (`domain.*,space.created`, as the descriptions say): a plain string beside a
    // list of enumerated values holds some of those values, separated by commas.
    const list = schema.anyOf.find((each) => each.type === 'array' && each.items?.enum);
    return fc.oneof(
      ...schema.anyOf.map((each) =>
        list?.items && each.type === 'string' && each.pattern === undefined ? commaList(list.items) : arbitraryOf(each),
      ),
    );
  }
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'string': {
      const known = schema.pattern === undefined ? undefined : byPattern[schema.pattern];
      if (schema.pattern !== undefined && !known) throw new Error(`No generator for the pattern ${schema.pattern}`);
      if (known) return known;
      if (schema.format === 'uri') return pageUrl;
      if (schema.format === 'idn-hostname') return idnHostname;
      return freeText(schema.minLength ?? 0, schema.maxLength ?? 40);
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

/** Enumerated values in one string, separated by commas (maybe with spaces, maybe repeated). */
const commaList = (items: Schema) =>
  fc
    .tuple(fc.array(fc.constantFrom(...(items.enum ?? []).map(String)), { minLength: 1, maxLength: 4 }), fc.boolean())
    .map(([values, spaced]) => values.join(spaced ? ' , ' : ','));

/** A valid body: generated from the schema, and valid against it by ajv (the document's own judge). */
export const validBody = (body: { schema: Schema; pointer: string }) =>
  (arbitraryOf(body.schema) as fc.Arbitrary<Record<string, unknown>>).filter(
    (value) => schemaErrors(body.pointer, value) === null,
  );
