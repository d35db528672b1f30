/**
 * `npm run fuzz`: a property-based run of the OpenAPI document against a running stack (`npm start`), the
 * Schemathesis way, with fast-check. For every operation of the document (each its share of the cases) it
 * generates requests: valid ones from the request schemas and parameters (every combination of optional
 * fields, values generated from the patterns themselves, odd but valid Unicode, the forms the descriptions
 * tolerate) and invalid ones (wrong JSON types, unknown and read-only fields, lengths one past the limit,
 * forbidden characters, missing fields, bad ids, cursors and preconditions), now and then without a key, with an
 * `Accept` that excludes JSON, `If-None-Match` on a change or a byte order mark, each as a fresh owner with a key
 * of its own. A case fails on any 5xx, on any answer the document does not allow (status, headers, body: the e2e
 * checker, `test/support/openapi.ts`), on a status its request should not get (a valid body refused, an invalid
 * one taken), on a 2xx whose resource differs from a following GET or from what was sent, on a 201 whose
 * `Location` or replay is wrong, and on a refused request that changed something. Bounded in cases and time;
 * loopback addresses only (docs/api.md maps its checks to Schemathesis').
 *
 * The engine (`fuzz`) is also what `test/contract/fuzz.test.ts` runs, bounded, in `npm test`.
 */

import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { localSettings, readLocalStack } from '#infra/local/settings.ts';
import { loadConfig } from '#lib/config.ts';
import { createApiKey } from '#lib/data/api-keys.ts';
import { createDb } from '#lib/dynamodb.ts';
import { acceptsJson } from '#lib/http/headers.ts';
import { domainNamePattern, pagePattern, spaceNamePattern } from '#lib/openapi/requests.ts';
import { DOMAIN_READ_ONLY, normalizeDomainName } from '#lib/schemas/domains.ts';
import { FEED_CURSOR_PATTERN } from '#lib/schemas/events.ts';
import { characterClass, NOT_IN_NAMES } from '#lib/schemas/fields.ts';
import { SPACE_READ_ONLY } from '#lib/schemas/spaces.ts';
import { pageHost, storedPage } from '#lib/urls.ts';
import {
  ContractError,
  checkResponse,
  document,
  documentOperations,
  resolveRef,
  schemaErrors,
} from '#test/support/openapi.ts';
import { commandLine, helpOption } from './support/cli.ts';

// ---- The document ----------------------------------------------------------------------------------------

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: boolean;
};
type Parameter = { name: string; in: 'path' | 'query' | 'header'; schema: Schema };

type Encoding = 'json' | 'form';
const MEDIA: Record<Encoding, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded' };

/** One operation as the fuzzer drives it. */
type Operation = {
  id: string;
  method: string;
  /** As the document writes it: `/spaces/{id}`. */
  path: string;
  collection: 'spaces' | 'domains' | undefined;
  action: 'list' | 'store' | 'show' | 'update' | 'destroy' | 'verify' | 'events' | 'document' | 'other' | 'unknown';
  /** For `other`: the methods the path does not have (405), and OPTIONS (the preflight); for `unknown`, any. */
  others?: string[];
  query: Parameter[];
  /** The body's schema per media type, by JSON pointer. */
  bodies: Partial<Record<Encoding, { schema: Schema; pointer: string }>>;
};

function actionOf(method: string, path: string): Operation['action'] {
  if (path === '/openapi.json') return 'document';
  if (path === '/events') return 'events';
  if (path.endsWith('/verify')) return 'verify';
  if (!path.includes('{id}')) return method === 'POST' ? 'store' : 'list';
  if (method === 'DELETE') return 'destroy';
  if (method === 'PUT' || method === 'PATCH') return 'update';
  return 'show';
}

/** Per path, the methods it does not have (405) and OPTIONS (the preflight). */
function otherMethods(): Operation[] {
  return Object.entries(document.paths).map(([path, item]) => ({
    id: `other methods on ${path}`,
    method: 'OPTIONS',
    path,
    collection: undefined,
    action: 'other' as const,
    query: [],
    bodies: {},
    others: [
      'OPTIONS',
      ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => !item['x-allow']?.includes(method)),
    ],
  }));
}

/** Paths under the base path the document does not have: OPTIONS is the preflight, anything else 404. */
const unknownPaths: Operation = {
  id: 'paths the API does not have',
  method: 'OPTIONS',
  path: '/nothing/{id}',
  collection: undefined,
  action: 'unknown',
  query: [],
  bodies: {},
  others: ['OPTIONS', 'OPTIONS', 'GET', 'POST', 'DELETE'],
};

function operations(): Operation[] {
  return [
    ...documentOperations().map(({ path, method, operation }) => {
      const raw = operation as unknown as {
        parameters?: { $ref: string }[];
        requestBody?: { $ref: string };
      };
      const parameters = (raw.parameters ?? []).map((ref) => resolveRef<Parameter>(ref).value);
      const bodies: Operation['bodies'] = {};
      if (raw.requestBody) {
        const { content } = resolveRef<{ content: Record<string, { schema: Schema }> }>(raw.requestBody).value;
        for (const encoding of ['json', 'form'] as const) {
          const media = content[MEDIA[encoding]];
          if (media) {
            const { value, pointer } = resolveRef<Schema>(media.schema);
            bodies[encoding] = { schema: value, pointer };
          }
        }
      }
      const collection = path.split('/')[1];
      const operationEntry: Operation = {
        id: operation.operationId,
        method,
        path,
        collection: collection === 'spaces' || collection === 'domains' ? collection : undefined,
        action: actionOf(method, path),
        query: parameters.filter((parameter) => parameter.in === 'query'),
        bodies,
      };
      return operationEntry;
    }),
    ...otherMethods(),
    unknownPaths,
  ];
}

// ---- Generators from the document's schemas ---------------------------------------------------------------

const FORBIDDEN_IN_NAMES = (() => {
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
    fc.constantFrom('Marketing', 'Ops', 'Big Team', 'فريق', 'Équipe ❤️', '🚀🚀', 'Cafe\u0301', '例え', 'a'.repeat(32)),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 32 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
  )
  .map((value) => value.trim())
  .filter((value) => value !== '' && count(value) <= 32 && withoutForbidden(value));

/** A hostname label: letters, digits and inner hyphens, in either case. */
const label = fc
  .tuple(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789'),
    fc.string({ unit: fc.constantFrom(...'abcxyz0189-'), maxLength: 20 }),
    fc.constantFrom(...'abcdefxyz0123456789'),
  )
  .map(([first, middle, last]) => `${first}${middle}${last}`);

/** The longest valid domain name: 239 characters, so that its verification name fits in DNS's 253. */
const LONGEST_DOMAIN = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(47)].join('.');

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
      .filter((value) => count(value) <= 255),
  },
  { weight: 1, arbitrary: fc.constant(`https://www.example.org/${'p'.repeat(255 - 24)}`) },
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

/**
 * What the descriptions say the service takes beyond the patterns (tolerated forms), as a store sends them:
 * an IDN in Unicode or punycode, a last label that starts with a digit, a page without a path, in Unicode, or
 * on an IP address. Each must be taken (and stored in its canonical form).
 */
const tolerated = {
  name: fc.constantFrom(
    'bücher.example',
    'xn--mnchen-3ya.example',
    '例え.jp',
    'ελληνικά.example',
    'shop.1a',
    ' Padded.example ',
  ),
  page: fc.constantFrom(
    'https://www.example.org',
    'https://bücher.example/straße?q=ä',
    'http://127.0.0.1:8080/x',
    'HTTPS://WWW.EXAMPLE.ORG/A',
  ),
};

/** A value valid for a JSON Schema of the kinds the document's requests use. */
function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
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
const validBody = (body: { schema: Schema; pointer: string }) =>
  (arbitraryOf(body.schema) as fc.Arbitrary<Record<string, unknown>>).filter(
    (value) => schemaErrors(body.pointer, value) === null,
  );

// ---- Invalid bodies ---------------------------------------------------------------------------------------

type Mutation = { note: string; body: Record<string, unknown> | string; confirm: boolean };

const typeOf = (schema: Schema): string[] => {
  const resolved = resolveRef<Schema>(schema).value;
  if (resolved.anyOf) return resolved.anyOf.flatMap(typeOf);
  if ('const' in resolved) return [resolved.const === null ? 'null' : typeof resolved.const];
  return [resolved.type ?? []].flat();
};

/** Values of other JSON types than the schema's. */
function wrongValues(schema: Schema): unknown[] {
  const types = typeOf(schema);
  const pool: [string, unknown][] = [
    ['string', '3'],
    ['string', ''],
    ['integer', 3],
    ['number', 2.5],
    ['boolean', true],
    ['null', null],
    ['object', { value: 3 }],
    ['array', ['a']],
  ];
  return pool
    .filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')))
    .map(([, value]) => value);
}

/** A value one past the field's length limit, shaped like a valid one. */
function tooLong(name: string, schema: Schema): string | undefined {
  const max = schema.maxLength ?? resolveRef<Schema>(schema).value.anyOf?.find((entry) => entry.maxLength)?.maxLength;
  if (max === undefined) return undefined;
  if (name === 'name' && max < 100) return 'x'.repeat(max + 1);
  if (name === 'name') {
    // Labels of 63, then one to make max + 1 characters in all.
    const labels: string[] = [];
    let length = 0;
    while (length + 64 < max + 1) {
      labels.push('a'.repeat(63));
      length += 64;
    }
    labels.push('b'.repeat(max + 1 - length));
    return labels.join('.');
  }
  const base = 'https://www.example.org/';
  return base + 'p'.repeat(max + 1 - base.length);
}

/** Invalid JSON bodies, each a valid one with one thing wrong; `confirm`: ajv must refuse it too. */
function jsonMutations(
  body: Record<string, unknown>,
  schema: Schema,
  readOnly: readonly string[],
): fc.Arbitrary<Mutation> {
  const properties = Object.entries(schema.properties ?? {});
  const options: fc.Arbitrary<Mutation>[] = [
    fc
      .constantFrom('colour', 'Name', 'owner', 'indexPage', '__proto__', 'constructor', 'status')
      .filter((key) => !(key in (schema.properties ?? {})))
      .map((key) => ({ note: `unknown field ${key}`, body: { ...body, [key]: 1 }, confirm: true })),
    fc.tuple(fc.constantFrom(...properties), fc.nat()).map(([[name, property], index]) => {
      const values = wrongValues(property);
      const value = values[index % values.length];
      return { note: `${name} as ${JSON.stringify(value)}`, body: { ...body, [name]: value }, confirm: true };
    }),
  ];
  if (readOnly.length > 0) {
    options.push(
      fc
        .constantFrom(...readOnly)
        .map((key) => ({ note: `read-only ${key}`, body: { ...body, [key]: 'x' }, confirm: true })),
    );
  }
  const names = properties.filter(([name]) => name === 'name');
  if (names.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...FORBIDDEN_IN_NAMES), fc.constantFrom('start', 'middle', 'end'))
        .map(([character, at]) => {
          const name = String(body.name ?? 'Team');
          const value =
            at === 'start' ? `${character}${name}` : at === 'end' ? `${name}${character}` : `a${character}b.com`;
          const hex = character.codePointAt(0)?.toString(16).toUpperCase();
          return { note: `name with U+${hex}`, body: { ...body, name: value }, confirm: true };
        }),
      fc.constant({ note: 'name with a lone surrogate', body: { ...body, name: 'a\ud800b.com' }, confirm: false }),
      fc
        .constantFrom('', '   ')
        .map((name) => ({ note: `blank name ${JSON.stringify(name)}`, body: { ...body, name }, confirm: true })),
    );
  }
  for (const [name, property] of properties) {
    const value = tooLong(name, property);
    if (value !== undefined)
      options.push(fc.constant({ note: `${name} one too long`, body: { ...body, [name]: value }, confirm: true }));
  }
  for (const name of schema.required ?? []) {
    const { [name]: _removed, ...rest } = body;
    options.push(fc.constant({ note: `no ${name}`, body: rest, confirm: true }));
  }
  return fc.oneof(...options);
}

/** Invalid form bodies: a list for a field, a color that is not one, a name too long or with a forbidden character. */
function formMutations(body: Record<string, unknown>, schema: Schema): fc.Arbitrary<Mutation> {
  const properties = Object.keys(schema.properties ?? {});
  const options: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...properties).map((name) => ({
      note: `${name} as a list`,
      body: { ...body, [name]: [String(body[name] ?? 'a'), 'b'] },
      confirm: false,
    })),
  ];
  if (properties.includes('color')) {
    options.push(
      fc.constantFrom('0', '7', 'blue', '2.5', '  ', '-1').map((color) => ({
        note: `color ${JSON.stringify(color)}`,
        body: { ...body, color },
        confirm: true,
      })),
    );
  }
  if (properties.includes('name')) {
    options.push(
      fc.constantFrom(...FORBIDDEN_IN_NAMES).map((character) => ({
        note: `name with U+${character.codePointAt(0)?.toString(16).toUpperCase()}`,
        body: { ...body, name: `a${character}b.com` },
        confirm: true,
      })),
    );
  }
  for (const name of properties) {
    const value = tooLong(name, schema.properties?.[name] as Schema);
    if (value !== undefined)
      options.push(fc.constant({ note: `${name} one too long`, body: { ...body, [name]: value }, confirm: true }));
  }
  return fc.oneof(...options);
}

// ---- Cases ------------------------------------------------------------------------------------------------

type IdKind = 'existing' | 'missing' | 'malformed';
type Case = {
  op: Operation;
  valid: boolean;
  note: string;
  id: IdKind;
  rawId: string;
  encoding?: Encoding;
  body?: Record<string, unknown> | string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Verify: the record is published first (when the target can publish). */
  publish: boolean;
  /** Show with the item's ETag in If-None-Match; update or delete with it in If-Match. */
  conditional: boolean;
  /** An invalid body that the document must refuse too (a form's list or a lone surrogate it cannot state). */
  confirm?: boolean;
  /** Another method than the operation's (`other`). */
  method?: string;
  /** An `Accept` header; one that excludes JSON is answered 406, whatever else the request holds. */
  accept?: string;
  /** A byte order mark before the body: read past. */
  bom?: boolean;
  /** `If-None-Match` on a change of an existing item: `*`, or its current ETag (412 either way). */
  noneMatch?: '*' | 'current';
  /** Sent without a key: 401 on every operation (but the document's). */
  noKey?: boolean;
};

/** The fields a client never writes, per collection: the schemas' own lists. */
const READ_ONLY: Record<string, readonly string[]> = { spaces: SPACE_READ_ONLY, domains: DOMAIN_READ_ONLY };

const malformedId = fc.constantFrom('0', '-1', '01', '1.0', '1e3', 'abc', '9'.repeat(30), '%20', '１');

function queryArbitrary(op: Operation, valid: boolean): fc.Arbitrary<{ query: Record<string, string>; note: string }> {
  const parameters = op.query.filter((parameter) => parameter.name !== 'cursor');
  const values = Object.fromEntries(
    parameters.map((parameter) => {
      const arbitrary =
        parameter.name === 'page'
          ? fc.integer({ min: 1, max: 5 })
          : parameter.name === 'search'
            ? // Now and then longer than any name: it must match nothing (never every item).
              fc.oneof(
                { weight: 4, arbitrary: arbitraryOf(parameter.schema) },
                fc.string({ minLength: 256, maxLength: 400 }),
              )
            : arbitraryOf(parameter.schema);
      return [parameter.name, fc.option(arbitrary.map(String), { nil: undefined })];
    }),
  );
  const validQuery = fc.record(values).map((record) => ({
    query: Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >,
    note: 'valid query',
  }));
  if (valid || op.query.length === 0) return validQuery;
  const odd = fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
    fc.constantFrom('x', '-1', '1e3', '\u202E'),
  );
  if (op.action === 'events') {
    return fc.oneof(
      odd
        .filter((after) => !new RegExp(FEED_CURSOR_PATTERN).test(after.trim()))
        .map((after) => ({ query: { after }, note: `after ${JSON.stringify(after)}` })),
      // Longer than 64 once trimmed (as the service reads it): spaces around a shorter one make it valid.
      fc
        .string({ minLength: 65, maxLength: 80 })
        .filter((type) => type.trim().length > 64)
        .map((type) => ({ query: { type }, note: 'type one too long' })),
    );
  }
  return odd
    .filter((cursor) => cursor.trim() !== '')
    .map((cursor) => ({ query: { cursor }, note: `cursor ${JSON.stringify(cursor)}` }));
}

/** `Accept` values: none most of the time, else ones that admit JSON and ones that exclude it. */
const ACCEPT = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  fc.constantFrom(
    'application/json',
    '*/*',
    'application/*',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'application/xml',
    'text/plain',
    'application/json;q=0, */*',
  ),
);

function caseArbitrary(op: Operation): fc.Arbitrary<Case> {
  if (op.action === 'other' || op.action === 'unknown') {
    return fc
      .tuple(fc.constantFrom(...(op.others ?? [])), fc.stringMatching(/^[a-z0-9]{1,8}(\/[a-z0-9]{1,8}){0,2}$/))
      .map(([method, rest]) => ({
        op,
        valid: true,
        note: op.action === 'unknown' ? `${method} /nothing/${rest}` : method,
        id: 'existing' as const,
        // An id where the path has one; under a path the API does not have, anything.
        rawId: op.action === 'unknown' ? rest : '1',
        query: {},
        headers: {},
        publish: false,
        conditional: false,
        method,
      }));
  }
  const base = fc.record({
    valid: fc.boolean(),
    id: fc.constantFrom<IdKind>('existing', 'existing', 'existing', 'existing', 'missing', 'malformed'),
    malformed: malformedId,
    missing: fc.integer({ min: 1000, max: 999_999_999 }),
    publish: fc.boolean(),
    conditional: fc.boolean(),
    idempotencyKey: fc.option(fc.uuid(), { nil: undefined }),
    encoding: fc.constantFrom<Encoding>('json', 'json', 'form'),
    accept: ACCEPT,
    bom: fc.integer({ min: 0, max: 9 }).map((draw) => draw === 0),
    noneMatch: fc.constantFrom<Case['noneMatch']>(
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      '*',
      'current',
    ),
    noKey: fc.integer({ min: 0, max: 19 }).map((draw) => draw === 0),
    tolerate: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
    toleratedName: tolerated.name,
    toleratedPage: tolerated.page,
  });
  return base.chain((b) => {
    const hasId = op.path.includes('{id}');
    const id: IdKind = hasId ? b.id : 'existing';
    const rawId = id === 'malformed' ? b.malformed : id === 'missing' ? String(b.missing) : '';
    const headers: Record<string, string> = {};
    const writes = op.method !== 'GET' && op.method !== 'HEAD';
    if (writes && b.idempotencyKey) headers['Idempotency-Key'] = b.idempotencyKey;
    if (b.accept !== undefined) headers.Accept = b.accept;
    const changes = op.action === 'update' || op.action === 'destroy';
    const common = {
      op,
      id,
      rawId,
      publish: b.publish,
      conditional: b.conditional,
      headers,
      ...(b.bom ? { bom: true } : {}),
      ...(b.noKey ? { noKey: true } : {}),
      ...(b.accept !== undefined ? { accept: b.accept } : {}),
      ...(changes && b.valid && b.noneMatch ? { noneMatch: b.noneMatch } : {}),
    };
    const body = op.bodies[b.encoding];
    if (body) {
      const bodies = validBody(body);
      if (b.valid) {
        // Now and then a store of a form the descriptions say is taken besides the patterns' (an IDN, a page
        // without a path, in Unicode, on an IP address).
        const tolerate = b.tolerate && op.action === 'store';
        return bodies.map((value) => {
          const sent =
            tolerate && op.collection === 'domains'
              ? { ...value, name: b.toleratedName, index_page: b.toleratedPage }
              : value;
          return {
            ...common,
            valid: true,
            note: tolerate && op.collection === 'domains' ? 'tolerated store body' : `valid ${b.encoding} body`,
            encoding: b.encoding,
            body: formOf(sent, b.encoding),
            query: {},
          };
        });
      }
      return bodies.chain((value) =>
        (b.encoding === 'json'
          ? jsonMutations(value, body.schema, op.action === 'update' ? (READ_ONLY[op.collection ?? ''] ?? []) : [])
          : formMutations(formOf(value, 'form'), body.schema)
        ).map((mutation) => ({
          ...common,
          valid: false,
          note: mutation.note,
          encoding: b.encoding,
          body: mutation.body,
          query: {},
          confirm: mutation.confirm,
        })),
      );
    }
    // Without a body: an invalid case is a bad query, or a precondition or key that cannot hold.
    if (!b.valid && op.action === 'destroy') {
      return fc.constantFrom(
        { ...common, valid: false, note: 'If-Match "999"', query: {}, headers: { ...headers, 'If-Match': '"999"' } },
        {
          ...common,
          valid: false,
          note: 'Idempotency-Key of 256 characters',
          query: {},
          headers: { ...headers, 'Idempotency-Key': 'k'.repeat(256) },
        },
      );
    }
    return queryArbitrary(op, b.valid || op.query.length === 0).map(({ query, note }) => ({
      ...common,
      valid: b.valid || op.query.length === 0,
      note,
      query,
    }));
  });
}

/** A form sends strings. */
function formOf(value: Record<string, unknown>, encoding: Encoding): Record<string, unknown> {
  if (encoding === 'json') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, field === null ? '' : field]));
}

// ---- Running a case ---------------------------------------------------------------------------------------

export type FuzzTarget = {
  /** The API's base URL, `/api/v1` included. */
  apiUrl: string;
  /** A key of a new owner with every scope: each case runs as its own owner. */
  newKey: () => Promise<string>;
  /** Publishes TXT records at a name (a controlled DNS server); without it verify is expected to find none. */
  publishTxt?: (name: string, values: string[]) => void;
};

export type FuzzOptions = {
  runs: number;
  /** Stop starting cases after this long; running ones finish. */
  timeLimitMs: number;
  seed?: number;
  concurrency?: number;
  log?: (line: string) => void;
};

export type FuzzReport = {
  seed: number;
  cases: number;
  requests: number;
  ms: number;
  /** Answers per operation and status. */
  statuses: Record<string, Record<string, number>>;
  failures: string[];
  /** Answers the environment explains (a DNS resolver the stack cannot reach), not the contract. */
  environment: string[];
};

type Reply = { status: number; headers: Headers; body: unknown; text: string };

class CaseFailure extends Error {}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export async function fuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  if (!LOOPBACK.has(new URL(target.apiUrl).hostname)) {
    throw new Error(`The fuzzer runs against a local stack only (loopback), not ${target.apiUrl}`);
  }
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const ops = operations();
  // Every operation its share of the cases, interleaved: which operations are covered does not depend on chance.
  const perOperation = Math.ceil(options.runs / ops.length);
  const samples = ops.map((op, index) => fc.sample(caseArbitrary(op), { numRuns: perOperation, seed: seed + index }));
  const cases = Array.from({ length: perOperation }, (_, round) => samples.map((each) => each[round] as Case))
    .flat()
    .slice(0, options.runs);
  const report: FuzzReport = { seed, cases: 0, requests: 0, ms: 0, statuses: {}, failures: [], environment: [] };
  const started = performance.now();
  const tally = (id: string, status: number | string) => {
    report.statuses[id] ??= {};
    const counts = report.statuses[id] as Record<string, number>;
    counts[status] = (counts[status] ?? 0) + 1;
  };

  async function send(
    key: string | undefined,
    method: string,
    path: string,
    init: { body?: string; type?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const url = `${target.apiUrl}${path}`;
    const headers = {
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
      ...(init.type ? { 'Content-Type': init.type } : {}),
      ...init.headers,
    };
    const response = await fetch(url, { method, headers, body: init.body });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const reply = { status: response.status, headers: response.headers, body, text };
    report.requests++;
    if (reply.status >= 500) throw new CaseFailure(`${method} ${path} answered ${reply.status}: ${text.slice(0, 300)}`);
    try {
      checkResponse(method, url, reply);
    } catch (error) {
      if (error instanceof ContractError) throw new CaseFailure(error.message);
      throw error;
    }
    return reply;
  }

  const encode = (encoding: Encoding, body: Record<string, unknown> | string) => {
    if (typeof body === 'string') return body;
    if (encoding === 'json') return JSON.stringify(body);
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(body))
      for (const item of [value].flat()) params.append(key, String(item));
    return params.toString();
  };

  /** A stored item to act on: a space or a domain with pages, as valid JSON. */
  async function setup(key: string, collection: 'spaces' | 'domains') {
    const body =
      collection === 'spaces'
        ? { name: `Setup ${randomUUID().slice(0, 8)}`, color: 2 }
        : { name: `setup-${randomUUID()}.example.net`, index_page: 'https://www.example.org/', not_found_page: null };
    const stored = await send(key, 'POST', `/${collection}`, { body: JSON.stringify(body), type: MEDIA.json });
    if (stored.status !== 201) throw new CaseFailure(`setup: storing a ${collection} item answered ${stored.status}`);
    return { data: (stored.body as { data: Record<string, unknown> }).data, etag: stored.headers.get('etag') ?? '' };
  }

  async function run(c: Case): Promise<void> {
    const { op } = c;
    const key = await target.newKey();
    const fail = (problem: string): never => {
      throw new CaseFailure(
        `${op.id} (${c.valid ? 'valid' : 'invalid'}: ${c.note}${c.id === 'existing' ? '' : `, ${c.id} id ${c.rawId}`}): ${problem}`,
      );
    };
    const item =
      op.collection && op.path.includes('{id}') && c.id === 'existing' ? await setup(key, op.collection) : undefined;
    const path = op.path.replace('{id}', item ? String(item.data.id) : c.rawId);
    const method = c.method ?? op.method;
    const query = new URLSearchParams(c.query).toString();
    const headers = { ...c.headers };
    if (item && c.conditional && op.action === 'show') headers['If-None-Match'] = item.etag;
    if (item && c.conditional && (op.action === 'update' || op.action === 'destroy') && c.valid)
      headers['If-Match'] = item.etag;
    if (item && c.noneMatch) headers['If-None-Match'] = c.noneMatch === '*' ? '*' : item.etag;
    const verification = item?.data.verification as { name: string; value: string } | undefined;
    if (op.action === 'verify' && verification && c.publish && target.publishTxt) {
      target.publishTxt(verification.name, [verification.value]);
    }
    const body = c.body !== undefined && c.encoding ? `${c.bom ? '\uFEFF' : ''}${encode(c.encoding, c.body)}` : '';
    const reply = await send(c.noKey ? undefined : key, method, `${path}${query ? `?${query}` : ''}`, {
      ...(c.body !== undefined && c.encoding ? { body, type: MEDIA[c.encoding] } : {}),
      headers,
    });
    tally(op.id, reply.status);
    if (op.action === 'verify' && reply.status === 503) {
      report.environment.push(`${op.id}: 503, the stack's DNS resolver did not answer`);
      return;
    }

    // The statuses this request may get.
    const expected = expectedStatuses(c, Boolean(verification && c.publish && target.publishTxt));
    if (!expected.includes(reply.status))
      fail(`answered ${reply.status}, expected ${expected.join(' or ')}: ${reply.text.slice(0, 300)}`);
    if (!c.valid && c.confirm && c.encoding && typeof c.body === 'object') {
      const pointer = op.bodies[c.encoding]?.pointer ?? '';
      if (schemaErrors(pointer, c.body) === null) fail('the fuzzer made an invalid body that the document allows');
    }
    const kind = op.collection;
    const itemPath = (id: unknown) => `/${kind}/${id}`;
    const show = async (id: unknown) => send(key, 'GET', itemPath(id));
    const data = (reply.body as { data?: Record<string, unknown> } | undefined)?.data;

    // A search longer than any name matches nothing: never every item.
    const search = c.query.search?.trim();
    if (reply.status === 200 && search !== undefined && [...search].length > 255 && op.method === 'GET') {
      const { data: listed } = reply.body as { data: unknown[] };
      if (listed.length !== 0) fail(`a search of ${search.length} characters listed ${listed.length} items`);
    }
    // A 201 says where the stored resource is; a replay of its request (same key) answers it again, storing
    // nothing and taking no id.
    if (reply.status === 201) {
      const location = reply.headers.get('location') ?? '';
      const id = (reply.body as { data: { id: number } }).data.id;
      if (new URL(location, target.apiUrl).pathname !== `${new URL(target.apiUrl).pathname}/${kind}/${id}`) {
        fail(`Location ${location} is not the stored item's`);
      }
      if (c.headers['Idempotency-Key']) {
        const again = await send(key, method, path, { body, type: MEDIA[c.encoding ?? 'json'], headers });
        if (again.status !== 201 || again.headers.get('idempotent-replayed') !== 'true' || again.text !== reply.text) {
          fail(`a replay of the store answered ${again.status} ${again.text.slice(0, 200)}`);
        }
        const next = await send(key, 'POST', `/${kind}`, {
          body: JSON.stringify(kind === 'spaces' ? { name: 'After the replay' } : { name: `next-${id}.example.net` }),
          type: MEDIA.json,
        });
        if ((next.body as { data?: { id: number } }).data?.id !== id + 1) fail('a replay used up an id');
      }
    }
    // A 2xx that wrote: a following GET answers the same resource (and ETag), with what was sent.
    if (reply.status === 201 || (reply.status === 200 && (op.action === 'update' || op.action === 'verify'))) {
      const shown = await show(data?.id);
      if (shown.status !== 200 || JSON.stringify(shown.body) !== JSON.stringify(reply.body)) {
        fail(`the answer differs from a following GET: ${reply.text.slice(0, 200)} then ${shown.text.slice(0, 200)}`);
      }
      if (shown.headers.get('etag') !== reply.headers.get('etag')) fail('the ETag differs from a following GET');
      if (c.encoding && typeof c.body === 'object') {
        const wrong = appliedWrongly(c, data ?? {}, item?.data);
        if (wrong) fail(wrong);
      }
    }
    if (reply.status === 200 && op.action === 'destroy') {
      const shown = await show(item?.data.id);
      if (shown.status !== 404) fail(`a GET after the delete answered ${shown.status}`);
    }
    // A refused request changed nothing (but a verification that found no record: it records when it looked).
    if (reply.status >= 400 && item && op.method !== 'GET' && op.method !== 'HEAD') {
      const shown = await show(item.data.id);
      const checked = op.action === 'verify' ? ['last_checked_at', 'updated_at'] : [];
      const comparable = (value: unknown) =>
        JSON.stringify(Object.entries(value as object).filter(([field]) => !checked.includes(field)));
      if (comparable((shown.body as { data?: unknown }).data ?? {}) !== comparable(item.data)) {
        fail(`a refused request changed the item: ${shown.text.slice(0, 300)}`);
      }
    }
    if (reply.status >= 400 && op.action === 'store') {
      const list = await send(key, 'GET', `/${kind}`);
      const total = (list.body as { meta: { total: number } }).meta.total;
      if (total !== 0) fail(`a refused store stored something (${total} items)`);
    }
  }

  // Runs the cases, a few at a time, until they are done or the time is up.
  const queue = [...cases];
  const seen = new Set<string>();
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      if (performance.now() - started > options.timeLimitMs) return;
      report.cases++;
      try {
        await run(c);
      } catch (error) {
        if (!(error instanceof CaseFailure)) throw error;
        // One line per distinct problem (the first 120 characters), with its case.
        const signature = error.message.slice(0, 120);
        if (!seen.has(signature)) {
          seen.add(signature);
          report.failures.push(error.message);
          options.log?.(`FAIL ${error.message}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** What a case's request may answer, by the document: its success, or the error its fault calls for. */
function expectedStatuses(c: Case, published: boolean): number[] {
  const { op } = c;
  if (op.action === 'other') return c.method === 'OPTIONS' ? [204] : [405];
  if (op.action === 'unknown') return c.method === 'OPTIONS' ? [204] : [404];
  if (op.action === 'document') return [200];
  // The gateway asks for the key first; a handler then refuses an Accept that excludes JSON before anything else.
  if (c.noKey) return [401];
  if (!acceptsJson(c.accept)) return [406];
  // If-None-Match on a change of an existing item (its ETag, or `*`): 412, nothing changes.
  if (c.noneMatch && c.id === 'existing') return [412];
  // An id the owner does not have is a 404, whatever the body; a bad Idempotency-Key is refused before any lookup.
  if (c.id !== 'existing') return c.note.startsWith('Idempotency-Key') ? [404, 422] : [404];
  switch (op.action) {
    case 'list':
      return c.valid ? [200] : [422];
    case 'events':
      // A bare id beyond the feed's head, or a cursor of another epoch, is 410 (documented, not in the schema).
      return c.valid ? ('after' in c.query ? [200, 410] : [200]) : [422];
    case 'show':
      return c.conditional ? [304] : [200];
    case 'destroy':
      return c.valid ? [200] : c.note.startsWith('If-Match') ? [412] : [422];
    case 'verify':
      return published ? [200] : [422];
    case 'store':
      if (!c.valid) return c.note.includes('lone surrogate') || c.note.includes('as a list') ? [422, 400] : [422];
      return loops(c) ? [422] : [201];
    case 'update':
      return c.valid ? [200] : [422];
  }
  return [];
}

/** A store whose page is on the domain itself: refused, by a rule the schema cannot state. */
function loops(c: Case): boolean {
  if (c.op.collection !== 'domains' || typeof c.body !== 'object') return false;
  const name = normalizeDomainName(String(c.body.name ?? ''));
  return ['index_page', 'not_found_page'].some((field) => {
    const page = c.body && typeof c.body === 'object' ? c.body[field] : undefined;
    return typeof page === 'string' && page !== '' && pageHost(page.trim()) === name;
  });
}

/** What a 2xx answered that the body did not ask for, or undefined. */
function appliedWrongly(
  c: Case,
  data: Record<string, unknown>,
  before: Record<string, unknown> | undefined,
): string | undefined {
  const body = c.body as Record<string, unknown>;
  const form = c.encoding === 'form';
  const checks: [string, unknown][] = [];
  if (c.op.collection === 'spaces') {
    if (typeof body.name === 'string') checks.push(['name', body.name.trim()]);
    else if (before) checks.push(['name', before.name]);
    const color = body.color;
    if (color === undefined || (form && color === '')) checks.push(['color', before ? before.color : 1]);
    else checks.push(['color', Number(color)]);
  } else {
    if (!before && typeof body.name === 'string') checks.push(['name', normalizeDomainName(body.name)]);
    // A page is stored as its WHATWG URL href (ASCII, percent-encoded, dot segments resolved).
    for (const field of ['index_page', 'not_found_page']) {
      const page = body[field];
      if (page === undefined) checks.push([field, before ? before[field] : null]);
      else checks.push([field, page === null || String(page).trim() === '' ? null : storedPage(String(page).trim())]);
    }
    if (before) checks.push(['name', before.name]);
  }
  const wrong = checks.filter(([field, value]) => data[field] !== value);
  return wrong.length === 0
    ? undefined
    : `the answer does not apply the body: ${wrong.map(([field, value]) => `${field} is ${JSON.stringify(data[field])}, not ${JSON.stringify(value)}`).join('; ')}`;
}

/** The report as lines: figures, statuses per operation, failures. */
export function describeReport(report: FuzzReport): string {
  const lines = [
    `${report.cases} cases, ${report.requests} requests in ${(report.ms / 1000).toFixed(1)} s (seed ${report.seed})`,
    ...Object.entries(report.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([id, counts]) =>
          `  ${id.padEnd(24)} ${Object.entries(counts)
            .map(([status, n]) => `${status}×${n}`)
            .join(' ')}`,
      ),
  ];
  if (report.environment.length > 0)
    lines.push(`${report.environment.length} answers explained by the environment: ${report.environment[0]}`);
  lines.push(report.failures.length === 0 ? 'No failures.' : `${report.failures.length} failures:`);
  lines.push(...report.failures.map((failure) => `  - ${failure}`));
  return lines.join('\n');
}

// ---- Command line -----------------------------------------------------------------------------------------

const USAGE = `Usage: npm run fuzz -- [--runs <n>] [--time <seconds>] [--seed <n>] [--concurrency <n>]

Generates requests from docs/openapi.json for every operation (valid and invalid bodies, queries, ids and
headers) and sends them to the stack \`npm start\` runs (read from its local-stack.json), each case as a new
owner with a key of its own. Fails (exit code 1) on any 5xx, any answer the document does not allow, a status
the request should not get, a 2xx that differs from a following GET, or a refused request that changed data.

Options:
  --runs <n>          cases to generate (default 500)
  --time <seconds>    stop starting cases after this long (default 120)
  --seed <n>          fast-check's seed, to replay a run (default: random, printed)
  --concurrency <n>   cases at a time (default 4)
  -h, --help          this help`;

async function main() {
  const parsed = commandLine(USAGE, {
    options: {
      ...helpOption,
      runs: { type: 'string' },
      time: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
    },
  });
  if (!parsed) return;
  const number = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) {
      console.error(`--${name} must be a whole number\n\n${USAGE}`);
      process.exit(2);
    }
    return Number(value);
  };
  const { values } = parsed;
  const stack = readLocalStack(localSettings(process.env).dataDir);
  if (!stack) {
    console.error('No local stack found: start it with `npm start` (in another terminal), then run this again.');
    process.exit(2);
  }
  const db = createDb(loadConfig({ TABLE_NAME: stack.tableName, DYNAMODB_ENDPOINT: stack.endpoint }));
  const target: FuzzTarget = {
    apiUrl: stack.apiUrl,
    newKey: async () => (await createApiKey(db, `fuzz-${randomUUID()}`, 'npm run fuzz')).key,
  };
  const report = await fuzz(target, {
    runs: number('runs', values.runs, 500),
    timeLimitMs: number('time', values.time, 120) * 1000,
    ...(values.seed === undefined ? {} : { seed: number('seed', values.seed, 0) }),
    concurrency: number('concurrency', values.concurrency, 4),
    log: (line) => console.error(line),
  });
  console.log(describeReport(report));
  process.exitCode = report.failures.length === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
