/**
 * What a write gives back, and how a request already done is told apart. Free of imports, so the HTTP wiring
 * that answers a replay (`lib/http/handler.ts`) adds nothing to any bundle.
 */

/**
 * A write's result, and whether it is the recorded result of an earlier request with the same idempotency key
 * (then nothing was written now, and the request is answered as it was the first time).
 */
export type Written<Result> = { result: Result; replayed: boolean };

/** What an idempotency record held before it held the write's result: the HTTP answer itself. */
export type RecordedAnswer = { statusCode: number; body: unknown; headers: Record<string, string> };

/**
 * A replay of a record written before records held results (`RecordedAnswer`): answered as recorded. Such
 * records expire 24 hours after they were written, so this path serves only the first day after the version
 * that records results is deployed, and can be deleted after that.
 */
export class RecordedAnswerReplay extends Error {
  constructor(readonly answer: RecordedAnswer) {
    super('Idempotent request replayed from a recorded answer');
    this.name = 'RecordedAnswerReplay';
  }
}
