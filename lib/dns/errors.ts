/** What a DNS lookup that got no answer throws; on its own, so the HTTP layer maps it without the resolver. */

/** A lookup that just timed out took seconds: asking again in one second would likely time out again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The answer could not be learned (timeout, SERVFAIL, refused, connection errors): not the same as "no
 * record". A 503 with `Retry-After` to a client (`lib/http/domain-errors.ts`); `code` is the resolver's
 * (`ETIMEOUT`, `ESERVFAIL`, …).
 */
export class DnsUnavailableError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor(
    readonly code: string,
    readonly lookupName: string,
    options?: { cause?: unknown },
  ) {
    super(`DNS lookup of ${lookupName} failed: ${code}`, options);
    this.name = 'DnsUnavailableError';
  }
}
