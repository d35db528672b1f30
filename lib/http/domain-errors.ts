/**
 * The data layer's domain errors that are the client's fault, said in the request's vocabulary: the data
 * layer knows attributes (`indexPage`), the client sent fields (`index_page`).
 */
import { type PageAttribute, PageLoopError } from '#lib/data/domains.ts';
import { ValidationError } from '#lib/errors.ts';
import { loopMessage } from '#lib/schemas/domains.ts';
import { VerificationMismatchError } from '#lib/verification.ts';

/** The request field of each stored page attribute. */
const pageFields = {
  indexPage: 'index_page',
  notFoundPage: 'not_found_page',
} as const satisfies Record<PageAttribute, string>;

/** Rethrows a page that points at its own domain as 422 field errors; any other error as it is. */
export function rethrowPageLoop(error: unknown): never {
  if (!(error instanceof PageLoopError)) throw error;
  const fields = error.attributes.map((attribute) => pageFields[attribute]);
  throw new ValidationError(Object.fromEntries(fields.map((field) => [field, [loopMessage(field)]])));
}

/** Rethrows a verification record that is missing or holds other values as a 422 on `verification`. */
export function rethrowVerificationMismatch(error: unknown): never {
  if (!(error instanceof VerificationMismatchError)) throw error;
  throw ValidationError.field('verification', error.message);
}
