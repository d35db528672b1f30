/**
 * The data layer's errors, in the domain's terms: what went wrong, never how to answer it. The HTTP layer
 * (`lib/http/data-errors.ts`) gives each its status, field and wording. Pure: no SDK, no HTTP.
 */

/** Base class: `instanceof DataError` tells a known outcome from a bug. */
export class DataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The item does not exist in the owner's partition (never, or no longer). */
export class ItemNotFound extends DataError {
  constructor() {
    super('Item not found');
  }
}

/** A name the item would hold is held by another item (the owner's, or an active domain anywhere). */
export class NameTaken extends DataError {
  constructor() {
    super('Name taken');
  }
}

/** What a lookup found at a verification name: nothing, or TXT values none of which is the token. */
export type Mismatch = { name: string; expected: string; found: readonly string[] };

/** The TXT record at the verification name is missing or holds other values. The domain did not change. */
export class VerificationMismatch extends DataError {
  constructor(readonly mismatch: Mismatch) {
    super('Verification record mismatch');
  }
}

/** The owner already holds the most items of this kind their plan allows. */
export class QuotaReached extends DataError {
  constructor(
    readonly kind: string,
    readonly quota: number,
    /** The plan whose limit it is. */
    readonly plan: string,
  ) {
    super(`Quota of ${quota} ${kind}s of plan ${plan} reached`);
  }
}

/** If-Match named versions the item no longer (or never) had. */
export class VersionMismatch extends DataError {
  constructor() {
    super('Version mismatch');
  }
}

/** The idempotency key holds the outcome of another request (method, path or body). */
export class IdempotencyKeyReused extends DataError {
  constructor() {
    super('Idempotency key reused for another request');
  }
}

/** Another request with the same idempotency key took it, and its outcome cannot be read yet. */
export class IdempotencyKeyInFlight extends DataError {
  constructor() {
    super('Idempotency key in flight');
  }
}

/**
 * The write lost every race for the owner's feed (or its items) within its time budget; nothing was written.
 * `retryAfterSeconds` is how long a client should wait.
 */
export class WriteContended extends DataError {
  constructor(readonly retryAfterSeconds = 1) {
    super('Write contended beyond its budget');
  }
}

/**
 * A feed cursor that can no longer be served: events after it may have expired (`expired`), or it belongs to
 * another epoch of the feed (a restored or re-created table: `epoch`). The reader must re-list and restart.
 */
export class FeedCursorGone extends DataError {
  constructor(readonly reason: 'expired' | 'epoch') {
    super(`Feed cursor gone: ${reason}`);
  }
}

/** A stored page attribute that would point at the domain itself (so redirect to itself). */
export type PageAttribute = 'indexPage' | 'notFoundPage';

/** A page would point at the domain itself: `attributes` are the pages at fault. */
export class PageLoopError extends DataError {
  constructor(readonly attributes: readonly PageAttribute[]) {
    super(`Page points at the domain itself: ${attributes.join(', ')}`);
  }
}

/**
 * A page would point at another of the owner's active domains, whose visitors are redirected again (and back,
 * when its pages point here: a loop). `pages` are the pages at fault, each with the domain it is on.
 */
export class PageOnOwnDomain extends DataError {
  constructor(readonly pages: readonly { attribute: PageAttribute; host: string }[]) {
    super(`Page points at another active domain of the owner: ${pages.map((page) => page.attribute).join(', ')}`);
  }
}

/**
 * The pages would not fit the edge's store (`lib/edge/rules/entry.ts`): `bytes` is what they take in their ASCII
 * form, `maxBytes` what one domain's pages may take; `attributes` are the pages the request set.
 */
export class PagesTooLarge extends DataError {
  constructor(
    readonly attributes: readonly PageAttribute[],
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super('Pages too large');
  }
}
