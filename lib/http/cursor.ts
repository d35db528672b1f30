/**
 * Opaque page cursors: where the previous page ended, signed with HMAC so a cursor cannot be forged,
 * edited, or used by another owner or with other sort and search parameters.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Position } from '#lib/data/listing.ts';
import { ValidationError } from '#lib/http/errors.ts';
import { type Config, requiredSetting } from '#lib/platform/config.ts';

const MAC_BYTES = 16;

/** What a cursor is only valid for. */
export type CursorScope = {
  owner: string;
  kind: string;
  sortBy: string;
  sort: string;
  search: string;
  perPage: number;
};

export type CursorState = Position & { page: number };

export type CursorSigner = {
  encode(scope: CursorScope, state: CursorState): string;
  /** The state a cursor carries; a 422 on `cursor` if it is malformed, edited or from another scope. */
  decode(scope: CursorScope, cursor: string): CursorState;
};

const invalid = () => ValidationError.field('cursor', 'The cursor is invalid or does not belong to this query.');

/** Signs with `CURSOR_SECRET`; throws at once (cold start) when the setting is missing. */
export function createCursorSigner(config: Pick<Config, 'cursorSecret'>): CursorSigner {
  const secret = requiredSetting(config as Config, 'cursorSecret', 'CURSOR_SECRET');
  return {
    encode: (scope, state) => encodeCursor(secret, scope, state),
    decode: (scope, cursor) => decodeCursor(secret, scope, cursor),
  };
}

function mac(secret: string, scope: CursorScope, payload: string): Buffer {
  const { owner, kind, sortBy, sort, search, perPage } = scope;
  return createHmac('sha256', secret)
    .update(JSON.stringify([owner, kind, sortBy, sort, search, perPage, payload]))
    .digest()
    .subarray(0, MAC_BYTES);
}

function encodeCursor(secret: string, scope: CursorScope, state: CursorState): string {
  const payload = Buffer.from(JSON.stringify([state.page, state.id, state.fold])).toString('base64url');
  return `${payload}.${mac(secret, scope, payload).toString('base64url')}`;
}

function decodeCursor(secret: string, scope: CursorScope, cursor: string): CursorState {
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length > 0) throw invalid();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, scope, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const [page, id, fold] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [number, number, string];
  return { page, id, fold };
}
