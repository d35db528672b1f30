/**
 * The data layer's errors said in the API's vocabulary: the data layer knows what went wrong and its
 * attributes (`indexPage`); the HTTP layer knows the status, the field the client sent (`index_page`) and the
 * wording, here for what every kind shares, in the kind's resource module for its own. The error middleware
 * asks `httpErrorOf` for every error a handler throws.
 */
import {
  DataError,
  FeedCursorGone,
  IdempotencyKeyInFlight,
  IdempotencyKeyReused,
  ItemNotFound,
  NameTaken,
  QuotaReached,
  VersionMismatch,
  WriteContended,
} from '#lib/data/errors.ts';
import {
  ConflictError,
  GoneError,
  type HttpError,
  IdempotencyKeyReusedError,
  NameTakenError,
  NotFoundError,
  PreconditionFailedError,
  QuotaExceededError,
  ServiceUnavailableError,
} from '#lib/http/errors.ts';

function fromDataError(error: DataError): HttpError | null {
  if (error instanceof ItemNotFound) return new NotFoundError();
  if (error instanceof NameTaken) return new NameTakenError();
  if (error instanceof QuotaReached) return new QuotaExceededError(error.kind, error.quota);
  if (error instanceof VersionMismatch) return new PreconditionFailedError();
  if (error instanceof IdempotencyKeyReused) return new IdempotencyKeyReusedError();
  if (error instanceof IdempotencyKeyInFlight) return new ConflictError();
  if (error instanceof WriteContended) return new ServiceUnavailableError(error.retryAfterSeconds);
  if (error instanceof FeedCursorGone) return new GoneError();
  return null;
}

/** Says what a kind's own errors mean (`lib/<kind>/api/errors.ts`), or null for any other error. */
export type KindErrors = (error: unknown) => HttpError | null;

/**
 * The HTTP error a data error means, or null for any other error (the middleware decides those). The errors
 * of one kind only (a domain's pages, its verification), or a shared one said the kind's way, are said by the
 * kind's resource module, which the kind's functions give their handler (`httpHandler`): the other functions
 * carry none of that wording.
 */
export function httpErrorOf(error: unknown, kindErrors?: KindErrors): HttpError | null {
  // The kind's own wording first: it may say a shared error its way (a webhook's quota, on `url`).
  const own = kindErrors?.(error) ?? null;
  if (own) return own;
  return error instanceof DataError ? fromDataError(error) : null;
}
