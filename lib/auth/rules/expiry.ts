/**
 * Key lifetimes as the key tool takes them: `--expires-in 30d`, `--expires-at 2026-01-31`, `--grace 24h`.
 * Instants are stored as ISO 8601 UTC strings (`Date#toISOString`), which sort and compare as text.
 */

export class InvalidDurationError extends Error {
  override name = 'InvalidDurationError';
}

const UNIT_SECONDS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;
const DURATION = /^(\d{1,9})([smhd])$/;
/** A date, or a date and time with `Z` or an offset: a time without a zone would depend on the machine. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** `YYYY-MM-DD` names a day that exists (Date.parse reads 2025-02-30 as 2 March). */
function isCalendarDate(date: string): boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

/** Seconds in `<N>s`, `<N>m`, `<N>h` or `<N>d` (N a whole number), or null when the text is not one. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/** `--grace`: a duration, 0 included (the old key stops at once). */
export function parseGrace(text: string): number {
  const seconds = parseDuration(text);
  if (seconds === null) {
    throw new InvalidDurationError(
      `--grace must be a whole number and a unit (s, m, h or d), e.g. 24h; got "${text}".`,
    );
  }
  return seconds;
}

export type ExpiryOptions = { expiresIn?: string | undefined; expiresAt?: string | undefined };

/**
 * When a new key expires, from `--expires-in` or `--expires-at`: an ISO instant, or undefined for a key
 * that never expires (neither flag). Throws with a message for the user on a bad value, both flags, or a past
 * instant.
 */
export function expiryFrom({ expiresIn, expiresAt }: ExpiryOptions, now: Date = new Date()): string | undefined {
  if (expiresIn !== undefined && expiresAt !== undefined) {
    throw new InvalidDurationError('Give --expires-in or --expires-at, not both.');
  }
  if (expiresIn !== undefined) {
    const seconds = parseDuration(expiresIn);
    if (seconds === null || seconds === 0) {
      throw new InvalidDurationError(
        `--expires-in must be a positive whole number and a unit (d, h, m or s), e.g. 90d; got "${expiresIn}".`,
      );
    }
    return new Date(now.getTime() + seconds * 1000).toISOString();
  }
  if (expiresAt !== undefined) {
    const text = expiresAt.trim();
    const time = ISO_INSTANT.test(text) && isCalendarDate(text.slice(0, 10)) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(time)) {
      throw new InvalidDurationError(
        `--expires-at must be an ISO 8601 date (2026-01-31, midnight UTC) or date-time with a zone (2026-01-31T18:00:00Z); got "${expiresAt}".`,
      );
    }
    if (time <= now.getTime()) throw new InvalidDurationError(`--expires-at ${expiresAt} is in the past.`);
    return new Date(time).toISOString();
  }
  return undefined;
}

/** Has a key with this expiry (none: never) expired at `now`? An unreadable expiry has (fail closed). */
export const isExpired = (expiresAt: unknown, now: Date): boolean =>
  expiresAt !== undefined && expiresAt !== null && !(Date.parse(String(expiresAt)) > now.getTime());
