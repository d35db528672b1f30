/**
 * Error responses. Their examples, statuses included, are what the code answers: the error classes the
 * handlers throw and API Gateway's own responses (`lib/gateway-responses.ts`), both built from the catalogue.
 */
import {
  BadRequestError,
  ConflictError,
  GoneError,
  type HttpError,
  NameTakenError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ServiceUnavailableError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
} from '#lib/errors.ts';
import { type GatewayResponseType, gatewayResponseBody, gatewayResponses } from '#lib/gateway-responses.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import type { ErrorBody } from '#lib/resources.ts';
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
  Conflict: thrown(
    'Defensive: the `Idempotency-Key` was taken by a concurrent request whose outcome could not be read back; retry after `Retry-After` seconds (the retry answers that outcome). A repeat of a request still running normally waits for it and answers its outcome.',
    new ConflictError(),
  ),
  Gone: thrown(
    'The feed cursor can no longer be served: events after it may have expired (they are kept 30 days), or it is from another epoch of the feed (the database was restored). Nothing was skipped silently: re-list the resources, then read the feed again from the start.',
    new GoneError(),
  ),
  PreconditionFailed: thrown(
    '`If-Match` names no current version of the resource (its `ETag`): it changed since it was read. Nothing was changed.',
    new PreconditionFailedError(),
  ),
  PayloadTooLarge: thrown(
    `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`,
    new PayloadTooLargeError(MAX_BODY_BYTES),
  ),
  UnsupportedMediaType: thrown(
    'The body is neither `application/x-www-form-urlencoded` nor `application/json`.',
    new UnsupportedMediaTypeError(),
  ),
  ValidationFailed: thrown('A field is invalid; `errors` has the messages by field.', new NameTakenError()),
  TooManyRequests: gateway(
    "Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds.",
    'THROTTLED',
  ),
  ServerError: gateway(
    'An unexpected failure; it is logged with the request id, and the body holds no details.',
    'DEFAULT_5XX',
  ),
  ServiceUnavailable: thrown(
    'The database is throttling or unavailable, a write kept losing races with concurrent writes of the same ' +
      'owner for its 4-second budget (nothing was written), or (when verifying a domain) the DNS lookup timed ' +
      'out or failed; retry after `Retry-After` seconds.',
    new ServiceUnavailableError(),
  ),
};

export type ErrorName = keyof typeof errors;

export const errorStatus = (name: ErrorName) => errors[name].example.status;

export const responseRef = (name: ErrorName | keyof typeof otherResponses) => ({
  $ref: `#/components/responses/${name}`,
});

export const headers = {
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
    schema: { type: 'string', pattern: '^"\\d+"$' },
    example: '"3"',
  },
  IdempotentReplayed: {
    description:
      'Present (`true`) when this is the recorded answer of an earlier request with the same `Idempotency-Key`: nothing was written again.',
    required: false,
    schema: { type: 'string', const: 'true' },
  },
};

/** Responses that are not errors: 304 to a show whose `If-None-Match` names the current version. */
export const otherResponses = {
  NotModified: {
    description:
      'The resource is unchanged: `If-None-Match` names its current `ETag` (or is `*`). No body; keep the copy you have.',
    headers: {
      ETag: { $ref: '#/components/headers/ETag' },
      'X-Request-Id': { $ref: '#/components/headers/RequestId' },
    },
  },
};

/** A JSON body of the named schema, with its example. */
export const jsonContent = (schema: SchemaName | object, example: unknown) => ({
  [JSON_TYPE]: { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example },
});

export function errorResponses() {
  const responses = Object.fromEntries(
    Object.entries(errors).map(([name, error]: [string, ErrorResponse]) => {
      const { status } = error.example;
      const schema = status === 422 ? schemaRef('ValidationError') : statusError(status);
      return [
        name,
        {
          description: error.description,
          ...('Retry-After' in error.headers
            ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } }
            : {}),
          content: jsonContent(schema, error.example),
        },
      ];
    }),
  );
  return { ...responses, ...otherResponses };
}

/** The error shape, with this status. */
const statusError = (status: number) => ({
  allOf: [schemaRef('Error'), { type: 'object', properties: { status: { const: status } } }],
});
