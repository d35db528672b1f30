/**
 * The `CORS_ALLOWED_ORIGINS` setting: which origins' pages may call the API from a browser. Pure, on the ground
 * floor, so the configuration reads it without the HTTP layer (which answers with it: `lib/http/headers.ts`).
 */

/**
 * The origins whose pages may call the API from a browser: `*` (any), or a list of origins
 * (`https://app.example.com`). Keys are bearer tokens a page must hold itself, never cookies, so no answer
 * ever carries `Access-Control-Allow-Credentials`, and `*` lends a page nothing it does not already have.
 */
export type AllowedOrigins = '*' | readonly string[];

/**
 * Parses the setting: `*`, or origins separated by commas, each `scheme://host[:port]` exactly as a browser
 * sends it in `Origin` (lower case, no path, no default port), so that an origin is allowed by plain
 * comparison. Throws a message naming the first bad entry.
 */
export function parseAllowedOrigins(value: string): AllowedOrigins {
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.length === 1 && entries[0] === '*') return '*';
  for (const entry of entries) {
    if (entry === '*') throw new Error('must be * alone, or a list of origins without *');
    const origin = URL.canParse(entry) ? new URL(entry) : undefined;
    if (!origin || !['http:', 'https:'].includes(origin.protocol) || origin.origin !== entry) {
      throw new Error(`must list origins such as https://app.example.com (lower case, no path): "${entry}" is not one`);
    }
  }
  return entries;
}

/** The allowed origins as the setting writes them (`CORS_ALLOWED_ORIGINS`). */
export const formatAllowedOrigins = (allowed: AllowedOrigins): string => (allowed === '*' ? '*' : allowed.join(','));
