/**
 * What the fuzzer knows of the API's resources besides the OpenAPI document. The collections, their limits and
 * the fields a client never writes come from the registry's kinds and modules (`lib/kinds.ts`,
 * `lib/<kind>/api/`); what is the fuzzer's own is written here, as an oracle independent of the code under test:
 * a valid item to act on, what a write must have stored, and the rules a schema cannot state. A kind the
 * oracle does not know is a compile error (`RESOURCES` is typed by the collections).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DOMAIN_READ_ONLY } from '#lib/domains/api/fields.ts';
import { normalizeDomainName } from '#lib/domains/api/name.ts';
import { type Collection, collectionNames } from '#lib/kinds.ts';
import { pageHost, storedPage } from '#lib/platform/urls.ts';
import { SPACE_READ_ONLY } from '#lib/spaces/api/fields.ts';
import { WEBHOOK_READ_ONLY } from '#lib/webhooks/api/fields.ts';
import {
  hostToResolve,
  storedWebhookUrl,
  type WebhookStack,
  webhookUrlRefusal,
} from '#test/support/fuzz/webhook-urls.ts';

/** The collection a path's first segment names, or undefined (the feed, the document, a path the API lacks). */
export const collectionOf = (segment: string | undefined): Collection | undefined =>
  collectionNames.find((collection) => collection === segment);

/** The longest valid domain name: 239 characters, so that its verification name fits in DNS's 253. */
export const LONGEST_DOMAIN = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(47)].join('.');

/**
 * Forms the descriptions say a domain store takes beyond the stored form's pattern: an IDN in Unicode or
 * punycode, a last label that starts with a digit, a name as pasted (a scheme, a slash, spaces, upper case, an
 * ideographic full stop), a mixed-script name (stored, shown in punycode); a page without a path, in Unicode,
 * or on an IP address. Each must be taken (and stored in its canonical form).
 */
export const tolerated = {
  name: fc.constantFrom(
    'bücher.example',
    'xn--mnchen-3ya.example',
    '例え.jp',
    'ελληνικά.example',
    'shop.1a',
    ' Padded.example ',
    'https://Example.com/',
    'HTTP://Bücher.Example',
    'shop\u3002example',
    'ex\u0430mple.com',
  ),
  page: fc.constantFrom(
    'https://www.example.org',
    'https://bücher.example/straße?q=ä',
    'http://127.0.0.1:8080/x',
    'HTTPS://WWW.EXAMPLE.ORG/A',
  ),
};

type Body = Record<string, unknown>;

/** One collection as the fuzzer knows it. */
type Resource = {
  /** The fields a client never writes: the schemas' own lists. */
  readOnly: readonly string[];
  /** A valid JSON store body, for an item a case then acts on (`setup` in the runner). */
  setupBody: () => Body;
  /** A valid JSON store body sent after a replay, whose id must come right after the replayed item's. */
  afterReplayBody: (replayedId: number) => Body;
  /** A store body with the tolerated forms drawn above; undefined: the collection has none. */
  toleratedStore?: (valid: Body, drawn: { name: string; page: string }) => Body;
  /**
   * What a 2xx that wrote must show, field by field, for the body sent (as a form or JSON) and the item as it
   * was before (an update) or undefined (a store).
   */
  expectedFields: (body: Body, form: boolean, before: Body | undefined) => [string, unknown][];
  /**
   * The fields of a valid write (a store, or an update of `before`) that the service refuses all the same, by a
   * rule the schema cannot state (a 422 naming each); none: the write is taken.
   */
  refusedFields: (body: Body, before: Body | undefined, stack: WebhookStack) => string[];
  /**
   * Fields the answers to a store (and to the actions that renew them) show that no read shows again (a secret),
   * each with its check: what is wrong with the value shown, or undefined.
   */
  shownOnce?: Record<string, (value: unknown) => string | undefined>;
  /** The host names a write of this body has the stack look up in DNS. */
  hostsOf?: (body: Body) => string[];
};

/** Where a domain's pages may not point: the domain itself (the page would loop). */
const PAGE_FIELDS = ['index_page', 'not_found_page'];

export const RESOURCES: Record<Collection, Resource> = {
  spaces: {
    readOnly: SPACE_READ_ONLY,
    setupBody: () => ({ name: `Setup ${randomUUID().slice(0, 8)}`, color: 2 }),
    afterReplayBody: () => ({ name: 'After the replay' }),
    expectedFields: (body, form, before) => {
      const checks: [string, unknown][] = [];
      if (typeof body.name === 'string') checks.push(['name', body.name.trim()]);
      else if (before) checks.push(['name', before.name]);
      const color = body.color;
      if (color === undefined || (form && color === '')) checks.push(['color', before ? before.color : 1]);
      else checks.push(['color', Number(color)]);
      return checks;
    },
    refusedFields: () => [],
  },
  domains: {
    readOnly: DOMAIN_READ_ONLY,
    setupBody: () => ({
      name: `setup-${randomUUID()}.example.net`,
      index_page: 'https://www.example.org/',
      not_found_page: null,
    }),
    afterReplayBody: (replayedId) => ({ name: `next-${replayedId}.example.net` }),
    toleratedStore: (valid, drawn) => ({ ...valid, name: drawn.name, index_page: drawn.page }),
    expectedFields: (body, _form, before) => {
      const checks: [string, unknown][] = [];
      if (!before && typeof body.name === 'string') checks.push(['name', normalizeDomainName(body.name)]);
      // A page is stored as its WHATWG URL href (ASCII, percent-encoded, dot segments resolved).
      for (const field of PAGE_FIELDS) {
        const page = body[field];
        if (page === undefined) checks.push([field, before ? before[field] : null]);
        else checks.push([field, page === null || String(page).trim() === '' ? null : storedPage(String(page).trim())]);
      }
      if (before) checks.push(['name', before.name]);
      return checks;
    },
    refusedFields: (body, before) => {
      if (before) return [];
      const name = normalizeDomainName(String(body.name ?? ''));
      return PAGE_FIELDS.filter((field) => {
        const page = body[field];
        return typeof page === 'string' && page !== '' && pageHost(page.trim()) === name;
      });
    },
  },
  webhooks: {
    readOnly: WEBHOOK_READ_ONLY,
    setupBody: () => ({ url: `https://hooks-${randomUUID().slice(0, 8)}.example.net/setup`, events: ['space.*'] }),
    afterReplayBody: (replayedId) => ({ url: `https://next-${replayedId}.example.net/hook` }),
    expectedFields: (body, form, before) => {
      const url = typeof body.url === 'string' ? storedWebhookUrl(body.url) : before?.url;
      const events = body.events === undefined ? (before ? before.events : ['*']) : eventPatterns(body.events);
      const enabled = enabledOf(body.enabled, form) ?? (before ? before.enabled : true);
      const description =
        body.description === undefined ? (before ? before.description : null) : noteOf(body.description);
      return [
        ['url', url],
        ['events', events],
        ['enabled', enabled],
        // Disabled by its owner (a write), or enabled: the item was never disabled for failing.
        ['disabled_reason', enabled ? null : 'owner'],
        ['description', description],
      ];
    },
    refusedFields: (body, _before, stack) =>
      typeof body.url === 'string' && webhookUrlRefusal(body.url, stack) !== undefined ? ['url'] : [],
    shownOnce: { secret: signingSecretProblem },
    hostsOf: (body) => {
      const host = typeof body.url === 'string' ? hostToResolve(body.url) : undefined;
      return host === undefined ? [] : [host];
    },
  },
};

/**
 * Event type patterns as a webhook keeps them: a list (a form's repeated field, or one field separated by
 * commas), each trimmed, blanks left out, every pattern once, in the order given.
 */
function eventPatterns(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',') : (value as string[]);
  return [...new Set(list.map((pattern) => pattern.trim()).filter((pattern) => pattern !== ''))];
}

/** A boolean as sent: JSON's own; a form's `true`, `1`, `on` and `false`, `0`, `off` (blank: not given). */
function enabledOf(value: unknown, form: boolean): boolean | undefined {
  if (value === undefined) return undefined;
  if (!form) return value as boolean;
  const word = String(value).trim().toLowerCase();
  if (word === '') return undefined;
  return ['true', '1', 'on'].includes(word);
}

/** A signing secret is `whsec_` and the base64 of 24 to 64 random bytes (Standard Webhooks' format). */
function signingSecretProblem(value: unknown): string | undefined {
  const encoded = /^whsec_(.*)$/.exec(String(value))?.[1] ?? '';
  const bytes = Buffer.from(encoded, 'base64');
  const canonical = encoded !== '' && bytes.toString('base64') === encoded;
  return canonical && bytes.length >= 24 && bytes.length <= 64
    ? undefined
    : `the secret ${JSON.stringify(value)} is not whsec_ and the base64 of 24 to 64 bytes`;
}

/** A note as kept: trimmed, empty or null for none. */
const noteOf = (value: unknown) => (value === null || String(value).trim() === '' ? null : String(value).trim());

/** The collection's knowledge; an operation without one (the feed, the document) has none to ask for. */
export function resourceOf(collection: Collection | undefined): Resource {
  if (!collection) throw new Error('The fuzzer knows no resource for this operation');
  return RESOURCES[collection];
}
