/**
 * What a request may send of a webhook: its URL, the event types it wants, whether it is enabled, a
 * description; the bodies they make, the one map between the API's names and the record's, each field's
 * documentation and the bodies' examples. How the API shows a webhook is `schema.ts`. A function's bundle takes
 * the request schemas only (the documentation is dropped as unused).
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import {
  type FieldDocs,
  fieldType,
  mapped,
  type RequestExample,
  readOnlyFields,
  storedFields,
} from '#lib/kind-module.ts';
import { eventTypes, kinds } from '#lib/kinds.ts';
import { characterCount, type Encoding, label, maxCharacters, text } from '#lib/schemas/fields.ts';
import { NAME_CHARACTERS, nameClasses, nameUnit, unchanged } from '#lib/schemas/patterns.ts';
import { type Mode, optional, requestBody, required } from '#lib/schemas/request.ts';
import { checkWebhookUrl, type UrlRefusal, WEBHOOK_URL_MAX_LENGTH } from '#lib/webhooks/rules/address.ts';
import { ALL_EVENTS, EVENT_PATTERNS_MAX, isEventPattern } from '#lib/webhooks/rules/event-patterns.ts';
import { webhookStoredNames } from './names.ts';
import type { Webhook } from './schema.ts';

export const DESCRIPTION_MAX = 255;

/** The webhook's fields a client never writes. */
export const WEBHOOK_READ_ONLY = /* @__PURE__ */ readOnlyFields<
  Webhook,
  'url' | 'events' | 'enabled' | 'description'
>()(['id', 'disabled_reason', 'created_at', 'updated_at']);

/** What each refusal of a URL answers: `The url field must <this>.` */
const urlProblems: Record<UrlRefusal, string> = {
  invalid_url: 'be an absolute https URL without spaces',
  invisible_host: 'name its host without invisible characters (the URL parser would drop them)',
  too_long: `not be longer than ${WEBHOOK_URL_MAX_LENGTH} characters`,
  scheme: 'use https (http only to this machine, on the local stack)',
  credentials: 'not contain a user name or password',
  internal_name: 'name a public host, not one only a local network resolves',
  stack_port: "not point to one of the local stack's own ports (its API, edge, DynamoDB Local or CloudFront)",
  private_address: 'not point to a private network address',
  loopback: 'not point to a loopback address',
  link_local: 'not point to a link-local address',
  multicast: 'not point to a multicast address',
  metadata: 'not point to an instance metadata address',
  reserved: 'not point to a reserved address',
};

export const urlMessage = (reason: UrlRefusal | 'unresolvable') =>
  reason === 'unresolvable'
    ? 'The url field must name a host that resolves to a public address.'
    : `The url field must ${urlProblems[reason]}.`;

/** Where a webhook may be delivered, before DNS: the checks `checkWebhookUrl` makes (the stack's loopback rule). */
export type UrlRules = { localLoopbackAllowed?: boolean; reservedPorts?: ReadonlySet<number> };

const url = (rules: UrlRules) => (encoding: Encoding) =>
  v.pipe(
    text('url', { encoding }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      if (characterCount(dataset.value) > WEBHOOK_URL_MAX_LENGTH) {
        addIssue({ message: urlMessage('too_long') });
        return NEVER;
      }
      const checked = checkWebhookUrl(dataset.value, rules);
      if (checked.ok) return checked.url.href;
      addIssue({ message: urlMessage(checked.reason) });
      return NEVER;
    }),
  );

/**
 * Event type patterns: a JSON list of strings; in a form, repeated fields (`events[]=…`) or one field of
 * patterns separated by commas. Duplicates are dropped; none is refused (leave the field out for every event).
 */
const events = (encoding: Encoding) =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      const list =
        encoding === 'form' && typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
      if (list === null || list.some((entry) => typeof entry !== 'string')) {
        addIssue({
          message: `The events field must be a list of event types${encoding === 'form' ? '' : ' (strings)'}.`,
        });
        return NEVER;
      }
      const patterns = [...new Set((list as string[]).map((entry) => entry.trim()))].filter((entry) => entry !== '');
      const unknown = patterns.filter((pattern) => !isEventPattern(pattern));
      // Counted as sent, repeats included (the document's maxItems).
      if (list.length > EVENT_PATTERNS_MAX)
        addIssue({ message: `The events field must not name more than ${EVENT_PATTERNS_MAX} patterns.` });
      else if (patterns.length === 0) addIssue({ message: 'The events field must name at least one event type.' });
      else if (unknown.length > 0)
        addIssue({
          message: `The events field names no event type: ${unknown
            .slice(0, 5)
            .map((u) => JSON.stringify(u))
            .join(', ')}.`,
        });
      else return patterns;
      return NEVER;
    }),
  );

const FORM_BOOLEANS: Record<string, boolean> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  on: true,
  off: false,
};

/** A boolean: JSON `true`/`false`; a form's `true`, `false`, `1`, `0`, `on` or `off` (blank: absent). */
const enabled = (encoding: Encoding) =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (encoding === 'json' && typeof value === 'boolean') return value;
      if (encoding === 'form' && typeof value === 'string') {
        const trimmed = value.trim().toLowerCase();
        if (trimmed === '') return undefined;
        const parsed = FORM_BOOLEANS[trimmed];
        if (parsed !== undefined) return parsed;
      }
      addIssue({ message: `The ${label('enabled')} field must be true or false.` });
      return NEVER;
    }),
  );

/** A note, held to the characters of names (`lib/platform/characters.ts`): it is shown beside them. */
const description = (encoding: Encoding) =>
  v.pipe(
    text('description', { encoding, nullable: true, characters: 'name' }),
    maxCharacters('description', DESCRIPTION_MAX),
  );

/**
 * The bodies for the stack's URL rules (the local stack lets a webhook call this machine over `http://`; the
 * document shows AWS's). Store: a URL is required; absent events are every event the key may read, absent
 * enabled is true.
 */
export function webhookBodies(rules: UrlRules) {
  const store = requestBody({
    url: required(url(rules)),
    // Absent: every event the key may read (`subscribedPatterns`, which needs the key: the store's handler).
    events: optional(events),
    enabled: optional(enabled, true),
    description: optional(description, null),
  });
  const update = requestBody(
    {
      url: optional(url(rules)),
      events: optional(events),
      enabled: optional(enabled),
      description: optional(description),
    },
    { readOnly: WEBHOOK_READ_ONLY },
  );
  return { store, update };
}

/** The request schemas, as the data layer takes the bodies (the record's names). */
export function webhookSchemas(rules: UrlRules) {
  const { store, update } = webhookBodies(rules);
  return {
    // A form's blank `enabled` is absent: the default.
    store: mapped(store, (body) => storedFields(webhookStoredNames, { ...body, enabled: body.enabled ?? true })),
    update: mapped(update, (body) => storedFields(webhookStoredNames, body)),
  };
}

const familyList = () => kinds.map((kind) => `\`${kind}.*\``).join(', ');

/** A description as the document states it: of the characters a name may hold (`nameUnit`), spaces around it. */
export const descriptionPattern = () => `^[${nameClasses().spaces}]*(${nameUnit()})*[${nameClasses().spaces}]*$`;
/** A description, as every body that sets it takes it (one component: its pattern is long). */
export const webhookFieldTypes = {
  WebhookDescription: (): JsonSchema => ({
    type: 'string',
    maxLength: DESCRIPTION_MAX,
    pattern: descriptionPattern(),
    description: `A note of at most ${DESCRIPTION_MAX} characters, held to the characters of names. ${NAME_CHARACTERS}`,
  }),
};
const descriptionText = () => fieldType('WebhookDescription');

export const webhookFieldDocs: FieldDocs<ReturnType<typeof webhookBodies>> = {
  url: (mode): JsonSchema => ({
    type: 'string',
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
    description:
      'Where deliveries are POSTed: an absolute `https://` URL (the local stack also takes `http://` to this ' +
      'machine) without a user name or password, whose host is a public name or address, without a character ' +
      'the URL parser would drop from it unseen (a soft hyphen, a zero-width space). Refused (422) when its ' +
      'host is, or resolves to, a private, loopback, link-local, multicast, metadata or reserved address ' +
      '(10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, fe80::/10…), and checked again at every ' +
      `delivery (DNS can change). Redirects are not followed.${unchanged(mode)}`,
    examples: ['https://hooks.example.com/domains-spaces'],
  }),
  events: (mode, encoding): JsonSchema => {
    const items: JsonSchema = {
      type: 'string',
      enum: [ALL_EVENTS, ...kinds.map((kind) => `${kind}.*`), ...eventTypes],
    };
    const what =
      `The event types to deliver: exact types (\`space.created\`), a kind's family (${familyList()}), or \`*\` ` +
      `for every event; at most ${EVENT_PATTERNS_MAX}, duplicates dropped. Only events the key could read in the ` +
      'feed: a `<kind>` pattern needs `<collection>:read` (`domain.*`: `domains:read`), `*` needs every read ' +
      'scope; others are refused (422 on `events`, naming the missing scopes). ' +
      (mode === 'store'
        ? 'Absent: every event the key may read: `*` for a key with every read scope, else the family of each collection it reads (`["domain.*"]` for `domains:read`); refused (422) for a key that reads none.'
        : 'Absent: unchanged; but a change of `url` or a re-enabling checks the events the webhook has against the key in the same way.');
    return encoding === 'json'
      ? { type: 'array', items, minItems: 1, maxItems: EVENT_PATTERNS_MAX, description: what, examples: [['domain.*']] }
      : {
          anyOf: [
            { type: 'array', items, minItems: 1, maxItems: EVENT_PATTERNS_MAX },
            { type: 'string', minLength: 1 },
          ],
          description: `${what} In a form: repeat the field (\`events[]=domain.*&events[]=space.created\`) or separate the patterns with commas.`,
          examples: ['domain.*,space.created'],
        };
  },
  enabled: (mode, encoding): JsonSchema =>
    encoding === 'json'
      ? {
          type: 'boolean',
          description: `Whether events are delivered.${mode === 'store' ? ' Default true.' : ' Enabling a webhook again delivers the events from then on and forgets its failures. Absent: unchanged.'}`,
          ...(mode === 'store' ? { default: true } : {}),
        }
      : {
          type: 'string',
          enum: ['true', 'false', '1', '0', 'on', 'off', ''],
          description: `Whether events are delivered. Empty: ${mode === 'store' ? 'true' : 'unchanged'}.`,
        },
  description: (mode, encoding): JsonSchema => ({
    ...(encoding === 'json' ? { anyOf: [descriptionText(), { type: 'null' as const }] } : descriptionText()),
    description: `A note for you, at most ${DESCRIPTION_MAX} characters, on one line (no new line, no tab); spaces around it are trimmed; empty${encoding === 'json' ? ' or null' : ''} for none. It holds what a name may hold (see \`WebhookDescription\`).${unchanged(mode)}`,
    examples: ['Our CRM'],
  }),
};

export const webhookRequestExamples: Record<Mode, RequestExample> = {
  store: {
    json: { url: 'https://hooks.example.com/domains-spaces', events: ['domain.*'], description: 'Our CRM' },
    form: { url: 'https://hooks.example.com/domains-spaces', events: 'domain.*', description: 'Our CRM' },
  },
  update: { json: { enabled: false }, form: { enabled: 'false' } },
};
