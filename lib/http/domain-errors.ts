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
  type Mismatch,
  NameTaken,
  type PageAttribute,
  PageLoopError,
  PagesTooLarge,
  QuotaReached,
  VerificationMismatch,
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
  // A verification record that is missing or holds other values: a 422 on `verification`.
  if (error instanceof VerificationMismatch)
    return ValidationError.field('verification', mismatchMessage(error.mismatch));
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

/** A record's value is the owner's own data; the message quotes a bounded part of it. */
const MAX_QUOTED_VALUES = 5;
const MAX_QUOTED_LENGTH = 64;

const quote = (value: string) =>
  JSON.stringify(value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH)}…` : value);

/** Says which record was expected and what was found, for a client to show as it is. */
export function mismatchMessage({ name, expected, found }: Mismatch): string {
  const wanted = `Expected a TXT record at ${name} with the value ${quote(expected)}`;
  if (found.length === 0) return `${wanted}, found none.`;
  const shown = found.slice(0, MAX_QUOTED_VALUES).map(quote).join(', ');
  const more = found.length > MAX_QUOTED_VALUES ? ` and ${found.length - MAX_QUOTED_VALUES} more` : '';
  return `${wanted}, found ${shown}${more}.`;
}

/** The HTTP error a domain error means, or null for any other error (the middleware decides those). */
export function httpErrorOf(error: unknown): HttpError | null {
  if (error instanceof DataError) return fromDataError(error);
  // DNS did not answer a lookup the request needs: try again shortly.
  if (error instanceof DnsUnavailableError) return new ServiceUnavailableError(error.retryAfterSeconds);
  return null;
}
