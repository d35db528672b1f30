/** One OpenAPI operation per route and method of the route table. */

import { VERIFICATION_PREFIX } from '#lib/domains/rules/verification.ts';
import { deleted } from '#lib/feed/present.ts';
import { type Collection, collectionNames, collections, type Kind, scopes } from '#lib/kinds.ts';
import { resources } from '#lib/registry.ts';
import { type Action, apiBasePath, feed, type HttpMethod, type Route, routes } from '#lib/routes.ts';
import { deliveryExample, deliveryListExample, eventListExample, listExample } from './examples.ts';
import { eventParameterNames, listParameterNames } from './parameters.ts';
import { requestSchemaName } from './requests.ts';
import {
  type ErrorName,
  errorResponses,
  errorStatus,
  everyAnswerHeaders,
  JSON_TYPE,
  jsonContent,
  responseRef,
} from './responses.ts';
import type { SchemaName } from './schemas.ts';

export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The bearer key scheme of `components.securitySchemes`. */
export const SECURITY_SCHEME = 'ApiKey';

/** A registry collection as the document shows it: its names, and an example item. */
type Title = (typeof collections)[Collection]['title'];
type Documented = { name: Collection; single: Kind; title: Title; tag: string; item: { id: number } };

const documented = (name: Collection): Documented => {
  const { kind, title, tag } = collections[name];
  return { name, single: kind, title, tag, item: resources[kind].examples.shown };
};

const ALWAYS: ErrorName[] = [
  'Unauthenticated',
  'Forbidden',
  'NotAcceptable',
  'TooManyRequests',
  'ServerError',
  'ServiceUnavailable',
];
const WITH_BODY: ErrorName[] = ['BadRequest', 'PayloadTooLarge', 'UnsupportedMediaType', 'ValidationFailed'];

/** Response headers by their component name; `Idempotent-Replayed` is named as it is sent. */
const headerNames = { ETag: 'ETag', Location: 'Location', IdempotentReplayed: 'Idempotent-Replayed' } as const;
type HeaderName = keyof typeof headerNames;

const success = (description: string, content: object, more: HeaderName[] = []) => ({
  description,
  headers: {
    ...Object.fromEntries(more.map((name) => [headerNames[name], { $ref: `#/components/headers/${name}` }])),
    ...everyAnswerHeaders,
  },
  content,
});

const single = (c: Documented) => jsonContent(`${c.title}Response`, { data: c.item });
const requestBody = (name: string) => ({ $ref: `#/components/requestBodies/${name}` });

type Spec = {
  summary: string;
  description: string;
  success: [number, object];
  errors: ErrorName[];
  /** Parameter components besides `Id`. */
  parameters?: string[];
  /** Other answers that are not errors (304). */
  also?: Record<number, object>;
  more?: object;
};

/** The store's answer: the kind's own when it shows more than `show` does (a webhook's secret). */
const storedResponse = (c: Documented): SchemaName => {
  const module = resources[c.single];
  return 'stored' in module ? `${module.stored.name}Response` : `${c.title}Response`;
};

/** What the kind's module adds to an operation's description. */
const note = (c: Documented, action: 'store' | 'destroy'): string => {
  const module = resources[c.single];
  return 'notes' in module ? module.notes[action] : '';
};

const IF_MATCH_NOTE =
  ' With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with ' +
  '`If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and ' +
  'nothing changes.';

const IDEMPOTENCY_NOTE =
  ' With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers ' +
  'the first answer again, with `Idempotent-Replayed: true`, and writes nothing.';

const actions: Record<Action, (c: Documented, method: HttpMethod) => Spec> = {
  list: (c) => ({
    summary: `List ${c.single}s`,
    description:
      `The owner's ${c.single}s, one page at a time. \`links.next\` carries a \`cursor\`: following it ` +
      'reads only about `per_page` items, however deep the page.',
    success: [
      200,
      success('One page, with links to the others.', jsonContent(`${c.title}List`, listExample(c.name, c.item))),
    ],
    errors: ['ValidationFailed'],
    parameters: listParameterNames(),
  }),
  store: (c) => ({
    summary: `Store a ${c.single}`,
    description:
      `Stores a new ${c.single} for the key's owner. Send the fields as a form or as JSON.` +
      note(c, 'store') +
      IDEMPOTENCY_NOTE,
    success: [
      201,
      {
        ...success(
          `The stored ${c.single}; \`Location\` is its URL.`,
          jsonContent(storedResponse(c), { data: resources[c.single].examples.stored }),
          ['ETag', 'Location', 'IdempotentReplayed'],
        ),
        links: itemLinks(c),
      },
    ],
    errors: [...WITH_BODY, 'Conflict'],
    parameters: ['IdempotencyKey'],
    more: { requestBody: requestBody(`Store${c.title}`) },
  }),
  show: (c) => ({
    summary: `Show a ${c.single}`,
    description: `One of the owner's ${c.single}s, with its version in \`ETag\`.`,
    success: [200, success(`The ${c.single}.`, single(c), ['ETag'])],
    errors: ['NotFound'],
    parameters: ['IfNoneMatch'],
    also: { 304: responseRef('NotModified') },
  }),
  update: (c, method) => ({
    summary: method === 'PATCH' ? `Update a ${c.single}` : `Update a ${c.single} (PUT)`,
    description: `A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (\`ETag\`) and \`updated_at\`, no event.${IF_MATCH_NOTE}${IDEMPOTENCY_NOTE}`,
    success: [200, success(`The updated ${c.single}.`, single(c), ['ETag', 'IdempotentReplayed'])],
    errors: ['NotFound', ...WITH_BODY, 'Conflict', 'PreconditionFailed'],
    parameters: ['IfMatch', 'IfNoneMatchChange', 'IdempotencyKey'],
    more: { requestBody: requestBody(`Update${c.title}`) },
  }),
  destroy: (c) => ({
    summary: `Delete a ${c.single}`,
    description: `Deletes the ${c.single}; its id is never used again${note(c, 'destroy')}.${IF_MATCH_NOTE}${IDEMPOTENCY_NOTE} (A repeat of a delete that was answered therefore answers 200 again, not 404.)`,
    success: [
      200,
      success(`The ${c.single} is deleted.`, jsonContent('Deleted', deleted(c.single, c.item.id)), [
        'IdempotentReplayed',
      ]),
    ],
    errors: ['NotFound', 'Conflict', 'PreconditionFailed', 'ValidationFailed'],
    parameters: ['IfMatch', 'IfNoneMatchChange', 'IdempotencyKey'],
  }),
  verify: (c) => ({
    summary: `Verify a ${c.single}`,
    description:
      `Looks up the TXT record given in the ${c.single}'s \`verification\` (\`${VERIFICATION_PREFIX}.<name>\`). When ` +
      'one of its values is the token and no other owner holds the name active, the domain becomes `active` and ' +
      'holds the name across all owners, atomically: of several owners verifying one name at once, exactly one ' +
      'wins. A record that is missing or holds other values answers 422 on `verification`, saying what was ' +
      'expected and what was found; a name active under another owner answers 422 on `name`. Either way ' +
      '`last_checked_at` records the check. Verifying an active domain checks again and answers 200 while the ' +
      'record is there; an active domain stays active whatever the record says. A DNS lookup that times out or ' +
      'fails (SERVFAIL) answers 503 with `Retry-After`. No body. With an `Idempotency-Key`, a repeat of a ' +
      'verification that succeeded answers its first answer again, with `Idempotent-Replayed: true`; a check ' +
      'that failed is not recorded, so a repeat checks again.',
    success: [200, success(`The ${c.single}, verified.`, single(c), ['ETag', 'IdempotentReplayed'])],
    errors: ['NotFound', 'ValidationFailed', 'Conflict'],
    parameters: ['IdempotencyKey'],
  }),
  'rotate-secret': (c) => ({
    summary: `Rotate a ${c.single}'s signing secret`,
    description:
      `Gives the ${c.single} a new signing secret, answered in \`data.secret\` (shown only here). For 24 hours ` +
      'deliveries carry two signatures in `webhook-signature`, one with each secret, so a receiver can switch ' +
      'over without missing one; then only the new secret signs. A secret rotated out earlier stops signing ' +
      `now. The change is a \`webhook.updated\` event (without either secret).${IF_MATCH_NOTE}${IDEMPOTENCY_NOTE}`,
    success: [
      200,
      success(
        `The ${c.single} with its new secret.`,
        jsonContent(storedResponse(c), { data: resources[c.single].examples.stored }),
        ['ETag', 'IdempotentReplayed'],
      ),
    ],
    errors: ['NotFound', 'Conflict', 'PreconditionFailed', 'ValidationFailed'],
    parameters: ['IfMatch', 'IdempotencyKey'],
  }),
  test: (c) => ({
    summary: `Send a test event to a ${c.single}`,
    description:
      'Sends a `webhook.test` event to the URL now, once (not retried), signed like every delivery, and ' +
      'answers the attempt as the deliveries list shows it: whether it succeeded, the status or the error, ' +
      `the duration. Sent whether or not the ${c.single} is enabled or listens to \`webhook.test\`; it is not in ` +
      'the change feed. The destination is checked again first (an address that is not public fails the ' +
      'attempt with `error: "destination"`). No body.',
    success: [200, success('The attempt.', jsonContent('DeliveryResponse', { data: deliveryExample }))],
    errors: ['NotFound'],
  }),
  deliveries: (c) => ({
    summary: `List a ${c.single}'s delivery attempts`,
    description:
      `Every attempt to deliver an event to the ${c.single} (tests included), newest first, kept 30 days: the event, ` +
      'the attempt (from 1; retries of one event share its `message_id`), the status code or the error, ' +
      'the duration and the start of the answer. Follow `links.next` for older attempts.',
    success: [200, success('One page of attempts, newest first.', jsonContent('DeliveryList', deliveryListExample))],
    errors: ['NotFound', 'ValidationFailed'],
    parameters: ['ListPerPage', 'ListCursor'],
  }),
};

/** The change feed: not a collection, one operation. */
const events: Spec = {
  summary: 'List events (the change feed)',
  description:
    "Every change of the owner's spaces, domains and webhooks (store, update, delete, verify, a secret's rotation, a webhook disabled for failing), oldest first: one event " +
    'per change, with ids that go up by one, in the feed by the time the change is answered, kept 30 days. ' +
    "Poll by following `links.next` (its cursor also carries the feed's epoch): no event is ever skipped or " +
    'repeated, even while other requests are writing; a page may end early while a change is still becoming ' +
    'visible, and the next poll continues there. A cursor whose next events may have expired, or from before a ' +
    'restore of the database, answers 410: re-list the resources, then read the feed again from the start. A ' +
    'key sees the events of the collections its scopes let it read.',
  success: [200, success('Events after `after`, oldest first.', jsonContent('EventList', eventListExample))],
  errors: ['ValidationFailed', 'Gone'],
  parameters: eventParameterNames(),
};

/** The stored item's id, in a store's answer: what its item operations take as `{id}`. */
export const STORED_ID = '$response.body#/data/id';

/** A store's links: each operation on the stored item (show, update with PATCH and PUT, delete, verify), by its id. */
function itemLinks(c: Documented) {
  const item = routes.filter((route) => route.collection === c.name && route.path.includes('{id}'));
  return Object.fromEntries(
    item.flatMap((route) =>
      route.methods.map((method) => {
        const id = operationId(route.action, c, method);
        return [
          id,
          {
            operationId: id,
            parameters: { id: STORED_ID },
            description: `\`${method} ${documentPath(route)}\` on the stored ${c.single}: its \`data.id\` is the \`{id}\`.`,
          },
        ];
      }),
    ),
  );
}

/** `listDomains`, `showDomain`, …; PUT is `putDomain`, as PATCH has the update's id. */
const operationId = (action: Action, c: Documented, method: HttpMethod) => {
  if (action === 'list') return `list${c.tag}`;
  if (action === 'update' && method === 'PUT') return `put${c.title}`;
  if (action === 'deliveries') return `list${c.title}Deliveries`;
  // `rotate-secret` is `rotateSecretWebhook`.
  const verb = action.replace(/-(\w)/g, (_dash, letter: string) => letter.toUpperCase());
  return `${verb}${c.title}`;
};

/** The path as the document writes it: relative to the servers, which end in the base path. */
export const documentPath = (route: Route) => route.path.slice(apiBasePath.length);

/** The document's tags: one per collection of the registry, described by its kind's module. */
export const tags = () =>
  collectionNames.map((name) => ({
    name: collections[name].tag,
    description: resources[collections[name].kind].description,
  }));

export const EVENTS_TAG = 'Events';

export function operation(route: Route, method: HttpMethod) {
  const { action } = route;
  const collection = route.collection === feed ? undefined : documented(route.collection);
  const spec = collection ? actions[action](collection, method) : events;
  const errors = [...ALWAYS, ...spec.errors].sort((a, b) => errorStatus(a) - errorStatus(b));
  const parameters = [...(route.path.includes('{id}') ? ['Id'] : []), ...(spec.parameters ?? [])];
  return {
    operationId: collection ? operationId(action, collection, method) : 'listEvents',
    tags: [collection?.tag ?? EVENTS_TAG],
    summary: spec.summary,
    description:
      route.collection === feed
        ? `${spec.description}\n\nNeeds any \`:read\` scope (403 without one).`
        : `${spec.description}\n\nNeeds the \`${route.scope}\` scope (403 without it).`,
    // The key's scope this operation needs (OpenAPI 3.1 lets a non-OAuth scheme list the roles required); the
    // feed needs any read scope: one requirement per scope, any of them satisfies it.
    security:
      route.collection === feed
        ? scopes.filter((scope) => scope.endsWith(':read')).map((scope) => ({ [SECURITY_SCHEME]: [scope] }))
        : [{ [SECURITY_SCHEME]: [route.scope] }],
    ...(parameters.length > 0
      ? { parameters: parameters.map((name) => ({ $ref: `#/components/parameters/${name}` })) }
      : {}),
    ...spec.more,
    responses: Object.fromEntries(
      [
        [spec.success[0], spec.success[1]] as const,
        ...Object.entries(spec.also ?? {}).map(([status, response]) => [Number(status), response] as const),
        ...errors.map((name) => [errorStatus(name), responseRef(name)] as const),
      ].sort((a, b) => a[0] - b[0]),
    ),
  };
}

type Answer = { $ref?: string; description?: string; headers?: object };

/**
 * `HEAD` on a `GET` operation: the same operation (parameters, scope, statuses, headers) without a body. Its
 * answers are the GET's, each without content (an error's description and headers, not its JSON).
 */
export function headOperation<
  Get extends { operationId: string; summary: string; description: string; responses: Record<string, Answer> },
>(get: Get) {
  const components: Record<string, Answer> = errorResponses();
  const bodiless = (response: Answer) => {
    const { description, headers } =
      response.$ref === undefined ? response : (components[response.$ref.split('/').at(-1) as string] ?? {});
    return { description, ...(headers ? { headers } : {}) };
  };
  return {
    ...get,
    operationId: `${get.operationId}Head`,
    summary: `${get.summary} (HEAD)`,
    description: `\`GET\` without the body: the same parameters, status and headers as \`GET\` would answer.\n\n${get.description.split('\n\n').at(-1)}`,
    responses: Object.fromEntries(
      Object.entries(get.responses).map(([status, response]) => [status, bodiless(response)]),
    ),
  };
}

/**
 * Request bodies, `Store<Title>` and `Update<Title>` per collection: each as a form or as JSON, with the same
 * fields, read leniently (a form) or strictly (JSON): a schema of each per media type, with its example.
 */
export function requestBodies() {
  const body = (mode: 'store' | 'update', title: string, kind: Kind) => ({
    // An update without a body changes nothing; a store without one answers 422.
    required: mode === 'store',
    content: {
      [JSON_TYPE]: {
        schema: { $ref: `#/components/schemas/${requestSchemaName(mode, title, 'json')}` },
        example: resources[kind].requestExamples[mode].json,
      },
      [FORM_TYPE]: {
        schema: { $ref: `#/components/schemas/${requestSchemaName(mode, title, 'form')}` },
        example: resources[kind].requestExamples[mode].form,
      },
    },
  });
  return Object.fromEntries(
    collectionNames.flatMap((name) => {
      const { kind, title } = collections[name];
      return [
        [`Store${title}`, body('store', title, kind)],
        [`Update${title}`, body('update', title, kind)],
      ];
    }),
  );
}
