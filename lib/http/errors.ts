/**
 * The error catalogue: every kind of error the API answers, with its status and client-safe message. The
 * `HttpError` classes below, the error middleware (`lib/http/middleware.ts`) and API Gateway's own answers
 * (`lib/http/gateway-responses.ts`) are built from it, so a status or a message is written once.
 * The data module and the request parsers throw these; anything else becomes a generic 500.
 */
import type { ErrorBody, ValidationErrorBody } from '#lib/schemas/responses.ts';

/**
 * The largest request body the API reads. Stated here, beside the one 413 message that names it: the
 * handlers' 413 and API Gateway's own (REQUEST_TOO_LARGE, past its 10 MB payload limit) say the same words.
 */
export const MAX_BODY_BYTES = 64 * 1024;

type CatalogueEntry = {
  status: number;
  /** The generic message of the kind; an error class may say more (e.g. which body limit). */
  message: string;
  /** Seconds the client should wait before retrying, sent as `Retry-After`. */
  retryAfter?: number;
};

export const errorCatalogue = {
  badRequest: { status: 400, message: 'Bad Request.' },
  unauthenticated: { status: 401, message: 'Unauthenticated.' },
  /** The key is valid but its scopes do not cover the route. */
  forbidden: { status: 403, message: 'This action is unauthorized.' },
  notFound: { status: 404, message: 'Resource not found.' },
  /** A path the API has, with a method it does not have; the answer's `Allow` names the path's methods. */
  methodNotAllowed: { status: 405, message: 'Method Not Allowed.' },
  /** `Accept` excludes `application/json`, the only media type the API answers in. */
  notAcceptable: { status: 406, message: 'Not Acceptable. The API answers application/json only.' },
  /** A request with the same idempotency key is still being processed. */
  conflict: {
    status: 409,
    message: 'A request with the same idempotency key is still in progress. Please retry.',
    retryAfter: 1,
  },
  /** A change-feed cursor whose next events may have expired, or from another epoch (a restored table). */
  gone: {
    status: 410,
    message:
      'The feed cursor has expired or belongs to an earlier copy of the feed. Re-list the resources, then read the feed again from the start.',
  },
  /** `If-Match` does not match the stored version, or `If-None-Match` does (or is `*`) on a change. */
  preconditionFailed: { status: 412, message: 'The resource has been modified.' },
  payloadTooLarge: { status: 413, message: `The request body must not be larger than ${MAX_BODY_BYTES / 1024} KiB.` },
  unsupportedMediaType: { status: 415, message: 'Unsupported Media Type.' },
  validationFailed: { status: 422, message: 'The given data was invalid.' },
  tooManyRequests: { status: 429, message: 'Too Many Requests.', retryAfter: 1 },
  serverError: { status: 500, message: 'Server Error.' },
  badGateway: { status: 502, message: 'Bad Gateway.' },
  /** DynamoDB (or the key lookup) is throttling or unavailable after the SDK's own retries. */
  serviceUnavailable: { status: 503, message: 'Service temporarily unavailable. Please retry.', retryAfter: 1 },
  gatewayTimeout: { status: 504, message: 'Gateway Timeout.' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorKind = keyof typeof errorCatalogue;

/** The headers an answer of this kind carries (`Retry-After`), with an optional other wait. */
export function errorHeaders(kind: ErrorKind, retryAfter?: number): Record<string, string> {
  const entry: CatalogueEntry = errorCatalogue[kind];
  const seconds = retryAfter ?? entry.retryAfter;
  return seconds === undefined ? {} : { 'Retry-After': String(seconds) };
}

/** The JSON error contract's body for a kind, with its generic message. */
export const errorBody = (kind: ErrorKind): ErrorBody => ({
  message: errorCatalogue[kind].message,
  status: errorCatalogue[kind].status,
});

/** An error whose message is safe to show a client, answered with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  body(): ErrorBody | ValidationErrorBody {
    return { message: this.message, status: this.status };
  }
}

/** Subclasses of one kind: `instanceof` still names the error, the status and message come from the catalogue. */
const kindArgs = (kind: ErrorKind, message?: string, retryAfter?: number) =>
  [errorCatalogue[kind].status, message ?? errorCatalogue[kind].message, errorHeaders(kind, retryAfter)] as const;

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends HttpError {
  /** `message`: the first field's first message unless said otherwise (how many more fields, say). */
  constructor(
    readonly errors: FieldErrors,
    message?: string,
  ) {
    super(...kindArgs('validationFailed', message ?? Object.values(errors)[0]?.[0]));
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  override body(): ValidationErrorBody {
    return { message: this.message, errors: this.errors, status: 422 };
  }
}

export class NotFoundError extends HttpError {
  constructor() {
    super(...kindArgs('notFound'));
  }
}

export class NameTakenError extends ValidationError {
  constructor() {
    super({ name: ['The name has already been taken.'] });
  }
}

export class QuotaExceededError extends ValidationError {
  /** Said on the field a store names its resource by (`name`; a webhook's `url`). */
  constructor(kind: string, quota: number, field = 'name') {
    super({ [field]: [`You have reached the maximum of ${quota} ${kind}s for this account.`] });
  }
}

/** The owner already used this idempotency key for another request (method, path or body). */
export class IdempotencyKeyReusedError extends ValidationError {
  constructor() {
    super({ 'Idempotency-Key': ['This Idempotency-Key was already used for another request.'] });
  }
}

export class UnauthenticatedError extends HttpError {
  constructor() {
    super(...kindArgs('unauthenticated'));
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(...kindArgs('badRequest', message));
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor() {
    super(...kindArgs('payloadTooLarge'));
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor() {
    super(
      ...kindArgs(
        'unsupportedMediaType',
        'The request body must be application/x-www-form-urlencoded or application/json.',
      ),
    );
  }
}

/** `Accept` excludes JSON: the answer would be one the client said it cannot take. */
export class NotAcceptableError extends HttpError {
  constructor() {
    super(...kindArgs('notAcceptable'));
  }
}

/** A change-feed cursor that can no longer be served: the client re-lists and starts over. */
export class GoneError extends HttpError {
  constructor() {
    super(...kindArgs('gone'));
  }
}

/** A conditional request whose precondition does not hold: `If-Match` names no current version, or
 * `If-None-Match` names the current one (`*`: any). */
export class PreconditionFailedError extends HttpError {
  constructor() {
    super(...kindArgs('preconditionFailed'));
  }
}

/** An idempotent request whose first attempt is still running: retry shortly. */
export class ConflictError extends HttpError {
  constructor(retryAfterSeconds?: number) {
    super(...kindArgs('conflict', undefined, retryAfterSeconds));
  }
}

/** DynamoDB is throttling or unavailable after the SDK's own retries: the client should retry later. */
export class ServiceUnavailableError extends HttpError {
  /** `message`: what was unavailable, when saying it helps the client (DNS, say); the kind's by default. */
  constructor(retryAfterSeconds?: number, message?: string) {
    super(...kindArgs('serviceUnavailable', message, retryAfterSeconds));
  }
}
