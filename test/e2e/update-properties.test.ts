/**
 * Updates, property-based (fast-check), over the local gateway. Every valid combination of fields (absent,
 * present, empty, null; as a form or as JSON; PUT or PATCH; a name changed, the same in another case or
 * unchanged) answers 200 with a body the OpenAPI document allows, equal to a following show, in which what
 * was not sent kept its value. A short sequence of updates runs on each resource, so each step starts from
 * what the previous one stored.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { refusedCharacters } from '#lib/platform/characters.ts';
import { SPACE_NAME_MAX } from '#lib/spaces/api/limits.ts';
import { type Client, type Reply, startTestGateway } from '#test/support/http.ts';
import { schemaErrors } from '#test/support/openapi.ts';
import { newClient } from './helpers.ts';

/** Each run is a new owner, a store and up to three update-and-show pairs: sized for a shared 2-core machine. */
const RUNS = { numRuns: 40 };
/** Room for fast-check to shrink a counterexample on a busy machine, so a failure shows it, not a timeout. */
const TIMEOUT = 90_000;
const STEPS = { minLength: 1, maxLength: 3 };

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

type Wire = string | number | null | undefined;
type Step<Fields> = { method: 'PUT' | 'PATCH'; encoding: 'form' | 'json'; fields: Fields; extra: boolean };

// ---- Generators -------------------------------------------------------------------------------------

const count = (value: string) => [...value].length;

/** Whitespace the API trims; control characters (tab, newline) are refused, not trimmed. */
const padding = fc.constantFrom('', ' ', '  ', '\u00a0');
const padded = (value: fc.Arbitrary<string>) =>
  fc.tuple(padding, value, padding).map(([before, core, after]) => `${before}${core}${after}`);

/**
 * A valid space name: 1 to 32 characters once trimmed, any Unicode text but what names refuse (control,
 * invisible, bidi control, private-use and blank-looking characters: `lib/platform/characters.ts`, the code's own rule; a `binary` string holds one now
 * and then, which made this property fail at random) and lone surrogates.
 */
const spaceName = fc
  .oneof(
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: SPACE_NAME_MAX }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: SPACE_NAME_MAX }),
  )
  .map((value) => value.trim())
  .filter(
    (value) =>
      value !== '' && !refusedCharacters(value, 'name') && value.isWellFormed() && count(value) <= SPACE_NAME_MAX,
  );

const color = fc.integer({ min: 1, max: 6 });
const method = fc.constantFrom('PUT', 'PATCH') as fc.Arbitrary<Step<unknown>['method']>;
const absent = fc.constant(undefined);

/** What a name field says, resolved against the current name when the step runs. */
type NameIntent =
  | { kind: 'absent' }
  | { kind: 'unchanged' | 'other case'; before: string; after: string }
  | { kind: 'new'; value: string };
const nameIntent: fc.Arbitrary<NameIntent> = fc.oneof(
  fc.constant({ kind: 'absent' as const }),
  fc.record({ kind: fc.constantFrom('unchanged' as const, 'other case' as const), before: padding, after: padding }),
  padded(spaceName).map((value) => ({ kind: 'new' as const, value })),
);

/** Color as a form sends it (digits, maybe padded or with a leading zero) or empty. */
const formColor = fc.oneof(
  absent,
  fc.constant(''),
  color.map(String),
  color.map((value) => ` 0${value} `),
);
/** Color in JSON: absent or a number (strict JSON input: digits, empty or null are a 422, tested elsewhere). */
const jsonColor = fc.oneof(absent, color);

type SpaceFields = { name: NameIntent; color: Wire };
const spaceStep: fc.Arbitrary<Step<SpaceFields>> = fc.oneof(
  fc.record({
    method,
    encoding: fc.constant('form' as const),
    fields: fc.record({ name: nameIntent, color: formColor }),
    extra: fc.boolean(),
  }),
  fc.record({
    method,
    encoding: fc.constant('json' as const),
    fields: fc.record({ name: nameIntent, color: jsonColor }),
    // A JSON body may hold only the fields an update lists (an unknown or read-only one is a 422).
    extra: fc.constant(false),
  }),
);

/** An absolute http(s) URL the API accepts as a page (at most 255 characters, and as its href). */
const pageUrl = fc
  .webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true })
  .filter((value) => count(value) <= 255 && URL.canParse(value) && new URL(value).href.length <= 255);
const formPage = fc.oneof(absent, fc.constant(''), pageUrl, padded(pageUrl));
const jsonPage = fc.oneof(absent, fc.constant(null), fc.constant(''), pageUrl, padded(pageUrl));

/** The name is not accepted on a domain update: whatever is sent is ignored (`same`: its own name). */
const ignoredDomainName = fc.oneof(
  absent,
  fc.constantFrom('same', 'SAME', 'other.example.net'),
  fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
);
const ignoredName = (sent: string | undefined, current: string) =>
  sent === 'same' ? current : sent === 'SAME' ? current.toUpperCase() : sent;

type DomainFields = { name: string | undefined; index_page: Wire; not_found_page: Wire };
const domainStep: fc.Arbitrary<Step<DomainFields>> = fc.oneof(
  fc.record({
    method,
    encoding: fc.constant('form' as const),
    fields: fc.record({ name: ignoredDomainName, index_page: formPage, not_found_page: formPage }),
    extra: fc.boolean(),
  }),
  fc.record({
    method,
    encoding: fc.constant('json' as const),
    // In JSON a domain's name cannot be sent on an update (422, tested elsewhere); as a form it is ignored.
    fields: fc.record({ name: absent, index_page: jsonPage, not_found_page: jsonPage }),
    extra: fc.constant(false),
  }),
);

// ---- Helpers ----------------------------------------------------------------------------------------

/** Fields that are not in the update schema: ignored in a form, never applied. */
const EXTRA = { id: '999999', created_at: '2000-01-01T00:00:00.000Z', updated_at: '2000-01-01T00:00:00.000Z' };

function send(api: Client, path: string, step: Step<unknown>, fields: Record<string, Wire>): Promise<Reply> {
  const present = Object.entries({ ...(step.extra ? EXTRA : {}), ...fields }).filter(
    ([, value]) => value !== undefined,
  );
  if (step.encoding === 'json') return api.request(step.method, path, { json: Object.fromEntries(present) });
  return api.request(step.method, path, {
    form: Object.fromEntries(present.map(([key, value]) => [key, String(value)])),
  });
}

/** Absent, empty and null leave a field as it was. */
const given = (value: Wire) => value !== undefined && value !== null && value !== '';

const swapCase = (value: string) =>
  [...value].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');

/** The name to send for an intent, and the name expected back. */
function resolveName(intent: NameIntent, current: string): { sent?: string; expected: string } {
  if (intent.kind === 'absent') return { expected: current };
  if (intent.kind === 'new') return { sent: intent.value, expected: intent.value.trim() };
  // Upper-casing may lengthen a name (ß → SS); past the limit it is sent unchanged instead.
  const swapped = swapCase(current);
  const name = intent.kind === 'other case' && count(swapped) <= SPACE_NAME_MAX ? swapped : current;
  return { sent: `${intent.before}${name}${intent.after}`, expected: name };
}

/**
 * The 2xx contract of one update: the body is the document's resource response, equals a following show,
 * and is the previous state with exactly the expected changes; `updated_at` moves only when a write happened.
 */
async function expectUpdated(
  api: Client,
  path: string,
  reply: Reply,
  schema: 'SpaceResponse' | 'DomainResponse',
  expected: Record<string, unknown>,
  wrote: boolean,
): Promise<void> {
  const context = `${reply.status} ${reply.text.slice(0, 400)}`;
  expect(reply.status, context).toBe(200);
  expect(schemaErrors(`/components/schemas/${schema}`, reply.body), context).toBeNull();
  const shown = await api.get(path);
  expect(shown.status).toBe(200);
  expect(shown.body, 'the answer differs from a following show').toEqual(reply.body);
  const { updated_at: before, ...unchanged } = expected;
  const { updated_at: after, ...actual } = reply.body.data;
  expect(actual, context).toEqual(unchanged);
  if (wrote) expect(after >= (before as string), `updated_at went back: ${before} → ${after}`).toBe(true);
  else expect(after).toBe(before);
}

// ---- Properties -------------------------------------------------------------------------------------

describe.concurrent('updates: every valid combination answers what a show then answers', () => {
  it(
    'spaces',
    async () => {
      await fc.assert(
        fc.asyncProperty(spaceName, color, fc.array(spaceStep, STEPS), async (name, initialColor, steps) => {
          // Prepare
          const api = await newClient(gateway);
          const stored = await api.post('/api/v1/spaces', { name, color: String(initialColor) });
          expect(stored.status, stored.text).toBe(201);
          const path = `/api/v1/spaces/${stored.body.data.id}`;
          let current = stored.body.data;
          for (const step of steps) {
            const { sent, expected } = resolveName(step.fields.name, current.name);
            const color = step.fields.color;
            // Act
            const reply = await send(api, path, step, { name: sent, color });
            // Assess
            await expectUpdated(
              api,
              path,
              reply,
              'SpaceResponse',
              { ...current, name: expected, color: given(color) ? Number(String(color).trim()) : current.color },
              sent !== undefined || given(color),
            );
            current = reply.body.data;
          }
        }),
        RUNS,
      );
    },
    TIMEOUT,
  );

  it(
    'domains',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.option(pageUrl, { nil: undefined }),
          fc.option(pageUrl, { nil: undefined }),
          fc.array(domainStep, STEPS),
          async (indexPage, notFoundPage, steps) => {
            // Prepare
            const api = await newClient(gateway);
            const initial = {
              name: `${randomUUID()}.example.com`,
              index_page: indexPage,
              not_found_page: notFoundPage,
            };
            const stored = await api.request('POST', '/api/v1/domains', { json: initial });
            expect(stored.status, stored.text).toBe(201);
            const path = `/api/v1/domains/${stored.body.data.id}`;
            let current = stored.body.data;
            for (const step of steps) {
              const { index_page, not_found_page } = step.fields;
              const name = ignoredName(step.fields.name, current.name);
              // Act
              const reply = await send(api, path, step, { name, index_page, not_found_page });
              // Assess
              // A page is stored as its href (WHATWG URL).
              const page = (value: Wire, before: string | null) =>
                value === undefined ? before : given(value) ? new URL(String(value).trim()).href : null;
              await expectUpdated(
                api,
                path,
                reply,
                'DomainResponse',
                {
                  ...current,
                  index_page: page(index_page, current.index_page),
                  not_found_page: page(not_found_page, current.not_found_page),
                },
                index_page !== undefined || not_found_page !== undefined,
              );
              current = reply.body.data;
            }
          },
        ),
        RUNS,
      );
    },
    TIMEOUT,
  );
});
