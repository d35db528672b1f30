/**
 * What an idempotent request recorded, and the signal that a request was already done. Free of imports, so
 * the HTTP wiring that answers a replay (`lib/http/handler.ts`) adds nothing to any bundle.
 */

/** The first answer to an idempotent request, as recorded with its write: status, body and headers. */
export type RecordedOutcome = { statusCode: number; body: unknown; headers: Record<string, string> };

/**
 * Not an error: the request's idempotency key already has a recorded outcome for this very request, so
 * nothing was written and the recorded answer is given again (with `Idempotent-Replayed: true`).
 */
export class IdempotentReplay extends Error {
  constructor(readonly outcome: RecordedOutcome) {
    super('Idempotent request replayed');
    this.name = 'IdempotentReplay';
  }
}
