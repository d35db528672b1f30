/**
 * Error responses. Their examples, statuses included, are what the code answers: the error classes the
 * handlers throw and API Gateway's own responses (`lib/http/gateway-responses.ts`), both built from the catalogue.
 */

import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import {
  BadRequestError,
  ConflictError,
  errorBody,
  GoneError,
  type HttpError,
  NameTakenError,
  NotAcceptableError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ServiceUnavailableError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
} from '#lib/http/errors.ts';
import { type GatewayResponseType, gatewayResponseBody, gatewayResponses } from '#lib/http/gateway-responses.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/headers.ts';
import type { ErrorBody } from '#lib/schemas/responses.ts';
import { type SchemaName, schemaRef } from './schemas.ts';

export const JSON_TYPE = 'application/json';

type ErrorResponse = { description: string; example: ErrorBody; headers: Record<string, string> };

/** A response of an error the handlers throw, or of one of API Gateway's own answers. */
const thrown = (description: string, error: HttpError): ErrorResponse => ({
  description,
  example: error.body(),
  headers: error.headers,
});
const gateway = (description: string, type: GatewayResponseType): ErrorResponse => ({
  description,
  example: gatewayResponseBody(type),
  headers: gatewayResponses[type].headers ?? {},
});

/** By component name; each answers with its example's status and headers (from the error catalogue). */
const errors = {
  BadRequest: thrown(
    'The body is not valid JSON, or not a JSON object.',
    new BadRequestError('The request body is not valid JSON.'),
  ),
  Unauthenticated: thrown(
    'The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired.',
    new UnauthenticatedError(),
  ),
  Forbidden: gateway(
    "The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs.",
    'ACCESS_DENIED',
  ),
  NotFound: thrown("No such id for this key's owner (another owner's ids are not found either).", new NotFoundError()),
  NotAcceptable: thrown(
    '`Accept` excludes `application/json`, the one media type the API answers in (`*/*`, `application/*` and ' +
      '`application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done.',
    new NotAcceptableError(),
  ),
  Conflict: thrown(
    'Defensive: the `Idempotency-Key` was taken by a concurrent request whose outcome could not be read back; retry after `Retry-After` seconds (the retry answers that outcome). A repeat of a request still running normally waits for it and answers its outcome.',
    new ConflictError(),
  ),
  Gone: thrown(
    'The feed cursor can no longer be served: events after it may have expired (they are kept 30 days), or it is from another epoch of the feed (the database was restored). Nothing was skipped silently: re-list the resources, then read the feed again from the start.',
    new GoneError(),
  ),
  PreconditionFailed: thrown(
    '`If-Match` names no current version of the resource (its `ETag`): it changed since it was read; or ' +
      '`If-None-Match` names the current one, or is `*` (the resource exists). Nothing was changed.',
    new PreconditionFailedError(),
  ),
  PayloadTooLarge: thrown(`The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`, new PayloadTooLargeError()),
  UnsupportedMediaType: thrown(
    'The body is neither `application/x-www-form-urlencoded` nor `application/json`.',
    new UnsupportedMediaTypeError(),
  ),
  ValidationFailed: thrown('A field is invalid; `errors` has the messages by field.', new NameTakenError()),
  TooManyRequests: gateway(
    "Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`.",
    'THROTTLED',
  ),
  ServerError: gateway(
    'An unexpected failure; it is logged with the request id, and the body holds no details.',
    'DEFAULT_5XX',
  ),
  ServiceUnavailable: thrown(
    'The database is throttling or unavailable, a write kept losing races with concurrent writes of the same ' +
      'owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a ' +
      "webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; " +
      'retry after `Retry-After` seconds.',
    new ServiceUnavailableError(),
  ),
};

export type ErrorName = keyof typeof errors;

/** 405, for a method a path does not have: the gateways' answer, from the catalogue. */
export const METHOD_NOT_ALLOWED = errorBody('methodNotAllowed');

export const errorStatus = (name: ErrorName) => errors[name].example.status;

export const responseRef = (name: ErrorName | keyof typeof otherResponses) => ({
  $ref: `#/components/responses/${name}`,
});

export const headers = {
  AccessControlAllowOrigin: {
    description:
      "CORS: who may read the answer from a browser: `*`, or the request's `Origin` when it is one of the allowed origins (then with `Vary: Origin`). Absent for an origin that is not allowed.",
    required: false,
    schema: { type: 'string' },
    example: '*',
  },
  AccessControlExposeHeaders: {
    description: 'CORS: the response headers a browser script may read. With `Access-Control-Allow-Origin`.',
    required: false,
    schema: { type: 'string' },
    example: CORS_EXPOSE_HEADERS.join(', '),
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  RequestId: {
    description: 'The request id the service logged this request with.',
    required: true,
    schema: { type: 'string' },
  },
  ETag: {
    description:
      'The resource\'s version, a strong entity tag (`"3"`) that changes with every change of the resource. Send it back in `If-Match` to change the resource only if nobody else did meanwhile, or in `If-None-Match` to get 304 while it is unchanged.',
    required: true,
    schema: { type: 'string', pattern: '^"[0-9]+"$' },
    example: '"3"',
  },
  Location: {
    description:
      "Where the stored resource is: the path the request called (as the API's host saw it, a stage included) and the new id, a reference relative to the URL the request called (RFC 9110 §10.2.2).",
    required: true,
    schema: { type: 'string', format: 'uri-reference' },
    example: '/api/v1/spaces/7',
  },
  IdempotentReplayed: {
    description:
      'Present (`true`) when this is the recorded answer of an earlier request with the same `Idempotency-Key`: nothing was written again.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
};

export const headerRef = (name: keyof typeof headers) => ({ $ref: `#/components/headers/${name}` });

/** Headers of the preflight and of 405 only: written out where they are used (see `otherResponses`). */
const conventionHeaders = {
  Allow: {
    description: "The path's methods (HEAD and OPTIONS included), comma-separated: its `x-allow`.",
    required: true,
    schema: { type: 'string' },
    example: 'GET, HEAD, OPTIONS, POST',
  },
  AccessControlAllowMethods: {
    description:
      "CORS preflight: the path's methods. Present when the request's `Origin` is allowed (always, with `*`).",
    required: false,
    schema: { type: 'string' },
    example: 'GET, HEAD, OPTIONS, POST',
  },
  AccessControlAllowHeaders: {
    description:
      "CORS preflight: the request headers a browser may send. Present when the request's `Origin` is allowed.",
    required: false,
    schema: { type: 'string' },
    example: CORS_ALLOW_HEADERS.join(', '),
  },
  AccessControlMaxAge: {
    description:
      "CORS preflight: how long, in seconds, a browser may reuse this answer. Present when the request's `Origin` is allowed.",
    required: false,
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: String(CORS_MAX_AGE_SECONDS),
  },
};

/** Headers on every answer: its request id, and the CORS headers a browser needs to read it. */
export const everyAnswerHeaders = {
  'X-Request-Id': headerRef('RequestId'),
  'Access-Control-Allow-Origin': headerRef('AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': headerRef('AccessControlExposeHeaders'),
};

/** Responses that are not errors: 304 to a show whose `If-None-Match` names the current version. */
export const otherResponses = {
  NotModified: {
    description:
      'The resource is unchanged: `If-None-Match` names its current `ETag` (or is `*`). No body; keep the copy you have.',
    headers: { ETag: headerRef('ETag'), ...everyAnswerHeaders },
  },
};

/**
 * What every path answers besides its operations: the CORS preflight (`OPTIONS` on any path) and 405 (a
 * method the path does not have). OpenAPI has no place for a method a path does not have, and an `options`
 * operation per path would be one more operation per path for the tools, the reference page and the generated
 * clients (and one without a 4xx answer, which the linter flags): the document holds them at its root, as
 * `x-preflight` and `x-method-not-allowed`, written out (a component used only from an extension counts as
 * unused). Each path's `x-allow` lists its methods.
 */
export const conventionResponses = {
  Preflight: {
    description:
      'The answer to `OPTIONS` on any path under the base path (a CORS preflight): no body, no key needed, ' +
      "`Allow` naming the path's methods. When the request's `Origin` is allowed (any, with the default `*`): " +
      "`Access-Control-Allow-Origin`, `Access-Control-Allow-Methods` (the path's methods), " +
      `\`Access-Control-Allow-Headers\` (${CORS_ALLOW_HEADERS.map((name) => `\`${name}\``).join(', ')}) and ` +
      '`Access-Control-Max-Age`; otherwise none of them, and the browser refuses the request itself. A path the ' +
      'API does not have answers it too, with `Allow: OPTIONS` and every method of the API in ' +
      '`Access-Control-Allow-Methods`: the browser then sends the request, and the page reads its 404.',
    headers: {
      Allow: conventionHeaders.Allow,
      'Access-Control-Allow-Methods': conventionHeaders.AccessControlAllowMethods,
      'Access-Control-Allow-Headers': conventionHeaders.AccessControlAllowHeaders,
      'Access-Control-Max-Age': conventionHeaders.AccessControlMaxAge,
      ...everyAnswerHeaders,
    },
  },
  MethodNotAllowed: {
    description:
      "A method the path does not have (`DELETE /spaces`, `POST /spaces/{id}`): `Allow` lists the path's " +
      'methods (its `x-allow`).',
    headers: { Allow: conventionHeaders.Allow, ...everyAnswerHeaders },
    content: jsonContent(statusError(METHOD_NOT_ALLOWED.status), METHOD_NOT_ALLOWED),
  },
};

/** A JSON body of the named schema, with its example. */
export function jsonContent(schema: SchemaName | object, example: unknown) {
  return { [JSON_TYPE]: { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example } };
}

export function errorResponses() {
  const responses = Object.fromEntries(
    Object.entries(errors).map(([name, error]: [string, ErrorResponse]) => {
      const { status } = error.example;
      const schema = status === 422 ? schemaRef('ValidationError') : statusError(status);
      return [
        name,
        {
          description: error.description,
          headers: {
            ...('Retry-After' in error.headers ? { 'Retry-After': headerRef('RetryAfter') } : {}),
            ...everyAnswerHeaders,
          },
          content: jsonContent(schema, error.example),
        },
      ];
    }),
  );
  return { ...responses, ...otherResponses };
}

/** The error shape, with this status. */
function statusError(status: number) {
  return { allOf: [schemaRef('Error'), { type: 'object', properties: { status: { const: status } } }] };
}
