/**
 * `Idempotency-Key` on every write (store, update, delete, verify): the key and the request's fingerprint go to the data layer, which records the
 * first answer with the write itself (`lib/data/commit.ts`) and replays it for a repeat of the request.
 */
import { createHash } from 'node:crypto';
import type { WriteOptions } from '#lib/data/commit.ts';
import { ValidationError } from '#lib/http/errors.ts';
import { preconditions } from './conditional.ts';
import type { ApiRequest } from './handler.ts';
import { header } from './headers.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
export const INVALID_KEY_MESSAGE = 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.';

/** What makes two requests the same request: method, path and body (SHA-256). */
function fingerprint(request: ApiRequest): string {
  const { httpMethod, path, body, isBase64Encoded } = request.event;
  return createHash('sha256')
    .update(`${httpMethod} ${path}\n`)
    .update(Buffer.from(body ?? '', isBase64Encoded ? 'base64' : 'utf8'))
    .digest('base64url');
}

/**
 * The idempotency of a write: with an `Idempotency-Key`, the key and the fingerprint, which the data layer records
 * with the write's result (`answer` makes the reply from it, the first time and on a replay); without one, none.
 * An invalid key is a 422 on `Idempotency-Key`.
 */
export function idempotent(request: ApiRequest): WriteOptions {
  const key = header(request.event.headers, IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return {};
  if (!KEY_PATTERN.test(key)) throw ValidationError.field(IDEMPOTENCY_KEY_HEADER, INVALID_KEY_MESSAGE);
  return { idempotency: { key, fingerprint: fingerprint(request) } };
}

/** Everything a write request asks of its change: If-Match, If-None-Match (`conditional.ts`), its Idempotency-Key. */
export function writeOptions(request: ApiRequest): WriteOptions {
  return { ...preconditions(request), ...idempotent(request) };
}
