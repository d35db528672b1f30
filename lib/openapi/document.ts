/**
 * The OpenAPI 3.1 document, generated from the resource registry (`lib/routes.ts`), the response schemas
 * (`lib/schemas/responses.ts`) and the request schemas (`lib/schemas`). `npm run openapi` writes it to
 * `docs/openapi.json`; a contract test fails when that file differs from what this returns.
 */

import { KEY_PREFIX } from '#lib/auth/api-key.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { apiBasePath, collectionNames, collections, routes, scopes } from '#lib/routes.ts';
import pkg from '../../package.json' with { type: 'json' };
import { LOCAL_SERVER } from './examples.ts';
import { documentPath, EVENTS_TAG, operation, requestBodies, SECURITY_SCHEME, tags } from './operations.ts';
import { parameters } from './parameters.ts';
import { requestSchemas } from './requests.ts';
import { errorResponses, headers } from './responses.ts';
import { responseSchemas } from './schemas.ts';

const scopeList = scopes.map((scope) => `\`${scope}\``).join(', ');

const description = `
Domains and spaces that belong to the owner of an API key.

**Authentication.** Every request carries \`Authorization: Bearer <key>\`. A missing, malformed, unknown, revoked
or expired key answers 401. A revoked or expired key is refused within the authorizer cache period.

**Scopes.** A key holds scopes: ${scopeList}. Each operation names the one it needs in its \`security\`; a key
without it answers 403 \`{"message": "This action is unauthorized.", "status": 403}\`.

**Limits.** Each key has a rate limit of its own (requests per minute); over it, or over the API's overall
rate, the answer is 429 with \`Retry-After\`.

**Bodies.** Send \`application/x-www-form-urlencoded\` (as \`curl --data-urlencode\` does) or
\`application/json\`, at most ${MAX_BODY_BYTES / 1024} KiB. Fields that are not listed are ignored.

**Answers.** Every answer is JSON, errors included: \`{"message": "...", "status": 404}\`, and a 422 adds
\`errors\` with the messages by field. 429 and 503 carry \`Retry-After\`.

**Lists.** The list query's invalid values fall back to their defaults. Follow \`links.next\` (it carries a
cursor) to page through; \`page\` alone also works, at the cost of a walk over the pages before it.

**Retries and concurrent edits.** A write (store, update, delete, verify) with an \`Idempotency-Key\` can be
retried safely: the repeat answers the first answer (\`Idempotent-Replayed: true\`) and writes nothing. A write
that keeps losing races with the same owner's other writes for 4 seconds answers 503 with \`Retry-After\`,
having written nothing. Every resource answers its version in
\`ETag\`; \`If-Match\` on an update or delete applies it only to that version (else 412), and \`If-None-Match\`
on a show answers 304 while it is unchanged.

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

export function buildDocument() {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const route of routes) {
    for (const method of route.methods) {
      paths[documentPath(route)] ??= {};
      (paths[documentPath(route)] as Record<string, unknown>)[method.toLowerCase()] = operation(route, method);
    }
  }
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
      ...tags({
        domains: 'A domain name, with an optional index page and an optional 404 page.',
        spaces: 'A named container with a color code.',
      }),
      { name: EVENTS_TAG, description: "The change feed: every change of the owner's spaces and domains." },
    ],
    paths,
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
      schemas: { ...responseSchemas(), ...requestSchemas() },
      parameters: parameters(),
      requestBodies: requestBodies(),
      responses: errorResponses(),
      headers,
    },
  };
}
