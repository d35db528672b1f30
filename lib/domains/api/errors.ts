/**
 * What a domain's own errors mean to a client: a page on the domain itself, pages the edge cannot store, a
 * verification record that is missing or holds other values, DNS that did not answer. The domain functions that
 * can meet them give theirs to their handler (`httpHandler(…, pageErrors)`); the middleware asks them after the
 * errors every kind shares (`lib/http/data-errors.ts`).
 */
import {
  type Mismatch,
  PageLoopError,
  PageOnOwnDomain,
  PagesTooLarge,
  VerificationMismatch,
} from '#lib/data/errors.ts';
import { dnsErrors } from '#lib/http/dns-errors.ts';
import { type HttpError, ValidationError } from '#lib/http/errors.ts';
import { label, loopMessage } from '#lib/schemas/fields.ts';
import { apiNameOf } from './fields.ts';
import { ReservedNameError, reservedMessage } from './name.ts';

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

/** A page on another of the owner's active domains: a redirect to a redirect, a loop if that one points back. */
const ownDomainMessage = (field: string, host: string) =>
  `The ${label(field)} must not point to ${host}, another of your active domains: its visitors would be ` +
  'redirected again (in a loop, if its pages point back here).';

function ownDomainErrors({ pages }: PageOnOwnDomain): ValidationError {
  const byField = pages.map(({ attribute, host }) => {
    const field = apiNameOf(attribute);
    return [field, [ownDomainMessage(field, host)]];
  });
  return new ValidationError(Object.fromEntries(byField));
}

/** What a store or an update of pages may meet. */
export function pageErrors(error: unknown): HttpError | null {
  if (error instanceof PageOnOwnDomain) return ownDomainErrors(error);
  if (error instanceof PageLoopError) {
    const fields = error.attributes.map(apiNameOf);
    return new ValidationError(Object.fromEntries(fields.map((field) => [field, [loopMessage(field)]])));
  }
  if (error instanceof PagesTooLarge) {
    const fields = error.attributes.map(apiNameOf);
    const message = pagesTooLargeMessage(error.bytes, error.maxBytes);
    return new ValidationError(Object.fromEntries(fields.map((field) => [field, [message]])));
  }
  return null;
}

/** What a verification may meet. */
export function verificationErrors(error: unknown): HttpError | null {
  // A verification record that is missing or holds other values: a 422 on `verification`.
  if (error instanceof VerificationMismatch)
    return ValidationError.field('verification', mismatchMessage(error.mismatch));
  if (error instanceof ReservedNameError) return ValidationError.field('name', reservedMessage(error.own));
  // Becoming active, a page would be on another of the owner's active domains: 422 on that page.
  if (error instanceof PageOnOwnDomain) return ownDomainErrors(error);
  // DNS did not answer a lookup the request needs: try again shortly.
  return dnsErrors(error);
}
