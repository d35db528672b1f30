/**
 * The OpenAPI 3.1 document, generated from the route table (`lib/routes.ts`), the registry of kinds (`lib/registry.ts`), the response schemas
 * (`lib/schemas/responses.ts`) and the request schemas (`lib/schemas`). `npm run openapi` writes it to
 * `docs/openapi.json`; a contract test fails when that file differs from what this returns.
 */

import { KEY_PREFIX } from '#lib/auth/rules/api-key.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/headers.ts';
import { collectionNames, collections, scopes } from '#lib/kinds.ts';
import { apiBasePath, apiPaths, documentRoute, routes } from '#lib/routes.ts';
import pkg from '../../package.json' with { type: 'json' };
import { LOCAL_SERVER } from './examples.ts';
import {
  documentPath,
  EVENTS_TAG,
  headOperation,
  operation,
  requestBodies,
  SECURITY_SCHEME,
  tags,
} from './operations.ts';
import { parameters } from './parameters.ts';
import { requestFieldTypes, requestSchemas } from './requests.ts';
import {
  conventionResponses,
  errorResponses,
  everyAnswerHeaders,
  headerRef,
  headers,
  JSON_TYPE,
  METHOD_NOT_ALLOWED,
} from './responses.ts';
import { responseSchemas } from './schemas.ts';
import { RECEIVING_TAG, webhooksSection } from './webhooks.ts';

const scopeList = scopes.map((scope) => `\`${scope}\``).join(', ');

const description = `
Domains, spaces and webhooks that belong to the owner of an API key. A webhook is sent the owner's changes as
they happen (\`webhooks\` below: signed as Standard Webhooks says, retried for more than 24 hours).

**Authentication.** Every request carries \`Authorization: Bearer <key>\`. A missing, malformed, unknown, revoked
or expired key answers 401. A revoked or expired key is refused within the authorizer cache period.

**Scopes.** A key holds scopes: ${scopeList}. Each operation names the one it needs in its \`security\`; a key
without it answers 403 \`{"message": "This action is unauthorized.", "status": 403}\`.

**Limits.** Each key has a rate limit of its own (requests per minute); over it, or over the API's overall
rate, the answer is 429 with \`Retry-After\`.

**Bodies.** Send \`application/x-www-form-urlencoded\` (as \`curl --data-urlencode\` does) or
\`application/json\`, at most ${MAX_BODY_BYTES / 1024} KiB. Each media type has its own schema, with the same fields.
JSON is strict: a field has its JSON type (\`"color": 3\`, not \`"3"\`), \`null\` only where a field is
nullable (a domain's pages: none), and a field the body does not list answers 422 on that field (\`The colour
field is not allowed.\`; a field of the resource that a client never writes, such as a domain's \`name\` on an
update: \`The name field cannot be changed.\`). A form is lenient: strings, a blank field for none (or the
default), other fields ignored. Either way a name refuses control, invisible and bidi control characters, and
a byte order mark at the start of a body is read past.

**Answers.** Every answer is JSON, errors included: \`{"message": "...", "status": 404}\`, and a 422 adds
\`errors\` with the messages by field; a request whose \`Accept\` excludes \`application/json\` answers 406. 429
and 503 carry \`Retry-After\`. A store answers 201 with where the new resource is in \`Location\`.

**Lists.** The list query's invalid values fall back to their defaults (as phpShort's do); a \`search\` is always
applied: one longer than any name matches nothing. Follow \`links.next\` (it carries a
cursor) to page through; \`page\` alone also works, at the cost of a walk over the pages before it.

**Retries and concurrent edits.** A write (store, update, delete, verify) with an \`Idempotency-Key\` can be
retried safely: the repeat answers the first answer (\`Idempotent-Replayed: true\`) and writes nothing. A write
that keeps losing races with the same owner's other writes for 4 seconds answers 503 with \`Retry-After\`,
having written nothing. A show, store or update answers the resource's version in \`ETag\`; \`If-Match\` on an
update or delete applies it only to that version (else 412), \`If-None-Match\` there only to another one (\`*\`:
412, the resource exists), and \`If-None-Match\` on a show answers 304 while it is unchanged. An update that
changes nothing writes nothing (the same version, no event).

**HTTP conventions.** Every answer carries \`X-Request-Id\` (quote it when reporting a problem), and, for a
request from an allowed origin (any, by default), \`Access-Control-Allow-Origin\` and
\`Access-Control-Expose-Headers\` (${CORS_EXPOSE_HEADERS.map((name) => `\`${name}\``).join(', ')}).
\`HEAD\` is answered on every \`GET\` path: the same status and headers, no body. \`OPTIONS\` on any path under
the base path is a CORS preflight (on one the API does not have too, so that a page reads its 404): 204, no key needed, \`Allow\`, and for an allowed origin \`Access-Control-Allow-Methods\` (the
path's methods), \`Access-Control-Allow-Headers\` (${CORS_ALLOW_HEADERS.join(', ')}) and
\`Access-Control-Max-Age\` (${CORS_MAX_AGE_SECONDS} seconds). A method a path does not have answers 405 with \`Allow\` (the path's methods) and
\`${JSON.stringify(METHOD_NOT_ALLOWED)}\`; a path the API does not have answers 404. In this document: each path's
\`x-allow\` lists its methods, and the root's \`x-preflight\` and \`x-method-not-allowed\` describe those two
answers, which OpenAPI has no per-path place for. \`GET /openapi.json\` is this document.

**Changes.** \`GET /events\` lists every change, oldest first, with ids that go up by one, for polling with
\`links.next\`; a cursor that can no longer be served answers 410. On AWS the same events reach an
EventBridge event bus (docs/events.md).
`.trim();

/** What each scope allows, by scope: `spaces:read` lists and shows spaces. */
const scopeDescriptions = Object.fromEntries(
  collectionNames.flatMap((name) => {
    const plural = `${collections[name].kind}s`;
    return [
      [`${name}:read`, `List and show ${plural}.`],
      [`${name}:write`, `Store, update and delete ${plural}.`],
    ];
  }),
);

const schemeDescription = [
  `An API key (\`${KEY_PREFIX}…\`), created with \`npm run keys -- create --owner <ownerId> [--scopes <scope,…>]\`.`,
  'A key holds one or more scopes (all of them by default); each operation lists the one it needs:',
  '',
  ...Object.entries(scopeDescriptions).map(([scope, text]) => `- \`${scope}\`: ${text}`),
].join('\n');

export type OpenApiDocument = ReturnType<typeof buildDocument>;

export const DOCUMENT_TAG = 'Document';

/** `GET /openapi.json`: this document, without a key. */
function documentOperation() {
  return {
    operationId: 'showOpenApiDocument',
    tags: [DOCUMENT_TAG],
    summary: 'This document',
    description:
      'The OpenAPI document, as `docs/openapi.json` holds it, with the local server named by the address that answers. No key needed.',
    security: [],
    responses: {
      200: {
        description: 'The OpenAPI 3.1 document.',
        headers: {
          'Cache-Control': {
            description: 'Caches may keep the document a few minutes.',
            required: true,
            schema: { type: 'string' },
            example: documentRoute.cacheControl,
          },
          ...everyAnswerHeaders,
        },
        content: {
          [JSON_TYPE]: {
            schema: {
              type: 'object',
              properties: { openapi: { const: '3.1.0' }, info: { type: 'object' }, paths: { type: 'object' } },
              required: ['openapi', 'info', 'paths'],
            },
          },
        },
      },
      404: documentError(404, 'The document is not built yet (a local stack before `npm run openapi`).'),
      500: documentError(
        500,
        'On AWS: S3, which holds the deployed document, refused to read it (a broken deployment).',
      ),
      503: documentError(
        503,
        'On AWS: S3, which holds the deployed document, failed or is slowing requests down; retry after `Retry-After` seconds.',
        { 'Retry-After': headerRef('RetryAfter') },
      ),
    },
  };
}

/** An error answer of the document's operation: the error shape with this status. */
function documentError(status: number, description: string, extra: Record<string, unknown> = {}) {
  return {
    description,
    headers: { ...extra, ...everyAnswerHeaders },
    content: {
      [JSON_TYPE]: {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Error' },
            { type: 'object', properties: { status: { const: status } } },
          ],
        },
      },
    },
  };
}

/** A path's methods as `Allow` lists them: the route table's (`apiPaths`), its routes', HEAD and OPTIONS. */
function allowed(path: string): readonly string[] {
  const entry = apiPaths.find((candidate) => candidate.path === `${apiBasePath}${path}`);
  if (!entry) throw new Error(`The route table has no path ${path}`);
  return entry.methods;
}

export function buildDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, value: unknown) => {
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[method] = value;
  };
  for (const route of routes) {
    for (const method of route.methods) {
      const value = operation(route, method);
      add(documentPath(route), method.toLowerCase(), value);
      if (method === 'GET') add(documentPath(route), 'head', headOperation(value));
    }
  }
  const document = documentOperation();
  add(documentRoute.path.slice(apiBasePath.length), 'get', document);
  add(documentRoute.path.slice(apiBasePath.length), 'head', headOperation(document));
  for (const [path, item] of Object.entries(paths)) item['x-allow'] = allowed(path);
  return {
    openapi: '3.1.0',
    info: { title: 'Domains and Spaces API', version: pkg.version, description },
    servers: [
      { url: LOCAL_SERVER, description: 'The local stack (`npm start`).' },
      {
        url: `https://{apiId}.execute-api.{region}.amazonaws.com/{stage}${apiBasePath}`,
        description: 'A deployed stage on AWS API Gateway.',
        variables: {
          apiId: { default: 'abcdef1234', description: 'The REST API id (a stack output).' },
          region: { default: 'eu-west-1', description: 'The AWS region of the stack.' },
          stage: { default: 'prod', description: 'The deployment stage.' },
        },
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [
      ...tags(),
      { name: EVENTS_TAG, description: "The change feed: every change of the owner's spaces, domains and webhooks." },
      {
        name: RECEIVING_TAG,
        description:
          "What a webhook's endpoint is sent: each change it subscribes to, and the test event, signed (Standard Webhooks).",
      },
      { name: DOCUMENT_TAG, description: 'This OpenAPI document.' },
    ],
    paths,
    webhooks: webhooksSection(),
    'x-preflight': conventionResponses.Preflight,
    'x-method-not-allowed': conventionResponses.MethodNotAllowed,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: `${KEY_PREFIX}…`,
          description: schemeDescription,
          'x-scopes': scopeDescriptions,
        },
      },
      schemas: { ...responseSchemas(), ...requestSchemas(), ...requestFieldTypes() },
      parameters: parameters(),
      requestBodies: requestBodies(),
      responses: errorResponses(),
      headers,
    },
  };
}
