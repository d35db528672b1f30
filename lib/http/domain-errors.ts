/**
 * The data layer's errors said in the API's vocabulary, in one place: the data layer knows what went wrong
 * and its attributes (`indexPage`); this knows the status, the field the client sent (`index_page`) and the
 * wording. The error middleware asks `httpErrorOf` for every error a handler throws.
 */
import {
  DataError,
  FeedCursorGone,
  IdempotencyKeyInFlight,
  IdempotencyKeyReused,
  ItemNotFound,
  NameTaken,
  type PageAttribute,
  PageLoopError,
  PagesTooLarge,
  QuotaReached,
  VersionMismatch,
  WriteContended,
} from '#lib/data/errors.ts';
import { DnsUnavailableError } from '#lib/dns/errors.ts';
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
  ValidationError,
} from '#lib/errors.ts';
import { loopMessage } from '#lib/schemas/fields.ts';
import { VerificationMismatchError } from '#lib/verification.ts';

/** The request field of each stored page attribute. */
const pageFields = {
  indexPage: 'index_page',
  notFoundPage: 'not_found_page',
} as const satisfies Record<PageAttribute, string>;

function fromDataError(error: DataError): HttpError | null {
  if (error instanceof ItemNotFound) return new NotFoundError();
  if (error instanceof NameTaken) return new NameTakenError();
  if (error instanceof QuotaReached) return new QuotaExceededError(error.kind, error.quota);
  if (error instanceof VersionMismatch) return new PreconditionFailedError();
  if (error instanceof IdempotencyKeyReused) return new IdempotencyKeyReusedError();
  if (error instanceof IdempotencyKeyInFlight) return new ConflictError();
  if (error instanceof WriteContended) return new ServiceUnavailableError(error.retryAfterSeconds);
  if (error instanceof FeedCursorGone) return new GoneError();
  if (error instanceof PageLoopError) {
    const fields = error.attributes.map((attribute) => pageFields[attribute]);
    return new ValidationError(Object.fromEntries(fields.map((field) => [field, [loopMessage(field)]])));
  }
  if (error instanceof PagesTooLarge) {
    const fields = error.attributes.map((attribute) => pageFields[attribute]);
    const message = pagesTooLargeMessage(error.bytes, error.maxBytes);
    return new ValidationError(Object.fromEntries(fields.map((field) => [field, [message]])));
  }
  return null;
}

/** Why pages that parse are still refused: the edge keeps both in one value of at most 1 KB. */
const pagesTooLargeMessage = (bytes: number, maxBytes: number) =>
  `The index_page and not_found_page fields may take ${maxBytes} bytes together as ASCII URLs; these take ${bytes}.`;

/** The HTTP error a domain error means, or null for any other error (the middleware decides those). */
export function httpErrorOf(error: unknown): HttpError | null {
  if (error instanceof DataError) return fromDataError(error);
  // DNS did not answer a lookup the request needs: try again shortly.
  if (error instanceof DnsUnavailableError) return new ServiceUnavailableError(error.retryAfterSeconds);
  // A verification record that is missing or holds other values: a 422 on `verification`.
  if (error instanceof VerificationMismatchError) return ValidationError.field('verification', error.message);
  return null;
}
