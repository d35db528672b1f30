/**
 * The cases: for one operation, a request valid or invalid in one way (its body, query, id, preconditions or
 * key), now and then with an `Accept` that excludes JSON, a byte order mark or without a key.
 */
import fc from 'fast-check';
import { SEARCH_MAX } from '#lib/data/keys.ts';
import { EVENT_TYPE_FILTER_MAX, FEED_CURSOR_PATTERN } from '#lib/schemas/events.ts';
import { formMutations, jsonMutations } from '#test/support/fuzz/invalid-bodies.ts';
import type { Encoding, Operation } from '#test/support/fuzz/operations.ts';
import { RESOURCES, tolerated } from '#test/support/fuzz/resources.ts';
import { arbitraryOf, validBody } from '#test/support/fuzz/valid-values.ts';

/** The id in the path: of an item the owner has (stored first), of none it has, or not an id at all. */
type IdKind = 'existing' | 'missing' | 'malformed';

/** One generated request of an operation, and what makes it valid or invalid. */
export type Case = {
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
                fc.string({ minLength: SEARCH_MAX + 1, maxLength: 400 }),
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
      // Longer than the limit once trimmed (as the service reads it): spaces around a shorter one make it valid.
      fc
        .string({ minLength: EVENT_TYPE_FILTER_MAX + 1, maxLength: 80 })
        .filter((type) => type.trim().length > EVENT_TYPE_FILTER_MAX)
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

export function caseArbitrary(op: Operation): fc.Arbitrary<Case> {
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
    const resource = op.collection ? RESOURCES[op.collection] : undefined;
    if (body) {
      const bodies = validBody(body);
      if (b.valid) {
        // Now and then a store of a form the descriptions say is taken besides the patterns' (an IDN, a page
        // without a path, in Unicode, on an IP address).
        const toleratedStore = b.tolerate && op.action === 'store' ? resource?.toleratedStore : undefined;
        return bodies.map((value) => {
          const sent = toleratedStore ? toleratedStore(value, { name: b.toleratedName, page: b.toleratedPage }) : value;
          return {
            ...common,
            valid: true,
            note: toleratedStore ? 'tolerated store body' : `valid ${b.encoding} body`,
            encoding: b.encoding,
            body: formOf(sent, b.encoding),
            query: {},
          };
        });
      }
      return bodies.chain((value) =>
        (b.encoding === 'json'
          ? jsonMutations(value, body.schema, op.action === 'update' ? (resource?.readOnly ?? []) : [])
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
    if (!b.valid && (op.action === 'destroy' || op.action === 'rotate-secret')) {
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
