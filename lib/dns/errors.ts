/** What a DNS lookup that got no answer throws; on its own, so the HTTP layer maps it without the resolver. */

/** A lookup that just timed out took seconds: asking again in one second would likely time out again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The answer could not be learned (timeout, SERVFAIL, refused, connection errors): not the same as "no
 * record". A 503 with `Retry-After` to a client (`lib/http/dns-errors.ts`); `code` is the resolver's
 * (`ETIMEOUT`, `ESERVFAIL`, …; `EAI_AGAIN` from the system's `getaddrinfo`).
 */
export class DnsUnavailableError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  /** The servers asked, as `DNS_RESOLVER` named them (`host:port`); undefined: the system's resolver. */
  readonly servers: readonly string[] | undefined;
  constructor(
    readonly code: string,
    readonly lookupName: string,
    options: { cause?: unknown; servers?: readonly string[] | undefined } = {},
  ) {
    super(`DNS lookup of ${lookupName} failed: ${code}`, { cause: options.cause });
    this.name = 'DnsUnavailableError';
    this.servers = options.servers;
  }
}
