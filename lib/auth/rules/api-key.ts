import { createHash, randomBytes } from 'node:crypto';

/** Recognisable in logs, secret scanners and support tickets. */
export const KEY_PREFIX = 'dsk_';
const SECRET_BYTES = 32;
/** 32 bytes in base64url without padding. */
const KEY_PATTERN = /^dsk_[A-Za-z0-9_-]{43}$/;
/** `Bearer` is case-insensitive (RFC 7235); exactly one space, then a well-formed key. */
const AUTHORIZATION_PATTERN = /^bearer ([^\s]+)$/i;
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 8;

export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** Keys are stored and looked up only by this hash. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Shown in listings to tell keys apart; too short to be of use to an attacker. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** The key in an `Authorization: Bearer <key>` header, or null if the header is absent or malformed. */
export function keyFromAuthorization(header: string | undefined): string | null {
  const token = header?.match(AUTHORIZATION_PATTERN)?.[1];
  return token !== undefined && KEY_PATTERN.test(token) ? token : null;
}
