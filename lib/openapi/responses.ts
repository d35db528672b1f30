/**
 * Error responses. Their examples are what the code answers: the error classes the handlers throw and
 * API Gateway's own responses (`lib/gateway-responses.ts`).
 */
import {
  BadRequestError,
  NameTakenError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
} from '#lib/errors.ts';
import { gatewayResponseBody } from '#lib/gateway-responses.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { type SchemaName, schemaRef } from './schemas.ts';

export const JSON_TYPE = 'application/json';

type ErrorResponse = { status: number; description: string; example: object; retryAfter?: boolean };

/** By component name; `status` is the HTTP status each one answers with. */
const errors = {
  BadRequest: {
    status: 400,
    description: 'The body is not valid JSON, or not a JSON object.',
    example: new BadRequestError('The request body is not valid JSON.').body(),
  },
  Unauthenticated: {
    status: 401,
    description: 'The `Authorization: Bearer <key>` header is missing, malformed, unknown or revoked.',
    example: new UnauthenticatedError().body(),
  },
  NotFound: {
    status: 404,
    description: "No such id for this key's owner (another owner's ids are not found either).",
    example: new NotFoundError().body(),
  },
  PayloadTooLarge: {
    status: 413,
    description: `The body is larger than ${MAX_BODY_BYTES / 1024} KiB.`,
    example: new PayloadTooLargeError(MAX_BODY_BYTES).body(),
  },
  UnsupportedMediaType: {
    status: 415,
    description: 'The body is neither `application/x-www-form-urlencoded` nor `application/json`.',
    example: new UnsupportedMediaTypeError().body(),
  },
  ValidationFailed: {
    status: 422,
    description: 'A field is invalid; `errors` has the messages by field.',
    example: new NameTakenError().body(),
  },
  TooManyRequests: {
    status: 429,
    description: "Over the API's request rate; retry after `Retry-After` seconds.",
    example: gatewayResponseBody('THROTTLED'),
    retryAfter: true,
  },
  ServerError: {
    status: 500,
    description: 'An unexpected failure; it is logged with the request id, and the body holds no details.',
    example: gatewayResponseBody('DEFAULT_5XX'),
  },
  ServiceUnavailable: {
    status: 503,
    description: 'The database is throttling or unavailable; retry after `Retry-After` seconds.',
    example: new ServiceUnavailableError().body(),
    retryAfter: true,
  },
} satisfies Record<string, ErrorResponse>;

export type ErrorName = keyof typeof errors;

export const errorStatus = (name: ErrorName) => errors[name].status;

export const responseRef = (name: ErrorName) => ({ $ref: `#/components/responses/${name}` });

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
};

/** A JSON body of the named schema, with its example. */
export const jsonContent = (schema: SchemaName | object, example: unknown) => ({
  [JSON_TYPE]: { schema: typeof schema === 'string' ? schemaRef(schema) : schema, example },
});

export function errorResponses() {
  return Object.fromEntries(
    Object.entries(errors).map(([name, error]: [string, ErrorResponse]) => {
      const schema = error.status === 422 ? schemaRef('ValidationError') : statusError(error.status);
      return [
        name,
        {
          description: error.description,
          ...(error.retryAfter ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
          content: jsonContent(schema, error.example),
        },
      ];
    }),
  );
}

/** The error shape, with this status. */
const statusError = (status: number) => ({
  allOf: [schemaRef('Error'), { type: 'object', properties: { status: { const: status } } }],
});
