/**
 * Domain errors: thrown by the data module and the request parsers, mapped to HTTP in one middleware.
 * Every `HttpError` message is safe to show a client; anything else becomes a generic 500.
 */
import type { ErrorBody, ValidationErrorBody } from '#lib/resources.ts';

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

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends HttpError {
  constructor(readonly errors: FieldErrors) {
    const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
    super(422, first);
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
    super(404, 'Resource not found.');
  }
}

export class NameTakenError extends ValidationError {
  constructor() {
    super({ name: ['The name has already been taken.'] });
  }
}

export class QuotaExceededError extends ValidationError {
  constructor(kind: string, quota: number) {
    super({ name: [`You have reached the maximum of ${quota} ${kind}s for this account.`] });
  }
}

export class UnauthenticatedError extends HttpError {
  constructor() {
    super(401, 'Unauthenticated.');
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

export class PayloadTooLargeError extends HttpError {
  constructor(limitBytes: number) {
    super(413, `The request body must not be larger than ${limitBytes / 1024} KiB.`);
  }
}

export class UnsupportedMediaTypeError extends HttpError {
  constructor() {
    super(415, 'The request body must be application/x-www-form-urlencoded or application/json.');
  }
}

/** DynamoDB is throttling or unavailable after the SDK's own retries: the client should retry later. */
export class ServiceUnavailableError extends HttpError {
  constructor(retryAfterSeconds = 1) {
    super(503, 'Service temporarily unavailable. Please retry.', { 'Retry-After': String(retryAfterSeconds) });
  }
}
