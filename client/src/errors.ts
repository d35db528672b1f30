/** The one error the client throws for an HTTP answer it does not turn into a result. */

/** The body of an error answer: `{"message", "status"}`, and `errors` by field on a 422. */
type ErrorBody = { message?: unknown; errors?: unknown };

/**
 * An answer with an error status (4xx, 5xx), after any retries. `message` is the body's; `errors` holds the
 * 422's messages by field (`{ name: ['The name has already been taken.'] }`), undefined otherwise.
 *
 * - 412: `ifMatch` named a version that is no longer current: show again, then decide.
 * - 410 (the change feed): the cursor's events may have expired, or the feed was restored; re-list the
 *   resources, then read the feed again from the start (`events.list()` without `after`).
 * - 429, 503: retried already (see `RetryOptions`); `retryAfter` says how long the server asked to wait.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** A 422's messages by field (`Idempotency-Key` included), undefined on other statuses. */
  readonly errors: Record<string, string[]> | undefined;
  /** `X-Request-Id`: quote it when reporting a problem (the API logs every request under it). */
  readonly requestId: string | undefined;
  /** `Retry-After`, in seconds, on 409, 429 and 503. */
  readonly retryAfter: number | undefined;
  /** The parsed body (undefined when it was not JSON). */
  readonly body: unknown;

  constructor(response: Response, body: unknown) {
    const { message, errors } = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
    super(typeof message === 'string' ? message : `HTTP ${response.status}`);
    this.status = response.status;
    this.errors = response.status === 422 && isFieldErrors(errors) ? errors : undefined;
    this.requestId = response.headers.get('X-Request-Id') ?? undefined;
    this.retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
    this.body = body;
  }
}

const isFieldErrors = (value: unknown): value is Record<string, string[]> =>
  typeof value === 'object' && value !== null && Object.values(value).every((messages) => Array.isArray(messages));

/** `Retry-After` as seconds: delay-seconds, or an HTTP date (RFC 9110 §10.2.3); undefined when absent or invalid. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
