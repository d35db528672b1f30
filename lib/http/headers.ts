/**
 * Request and response headers: reading them case-insensitively, and the CORS rules every answer follows,
 * the handlers' (`lib/http/middleware.ts`) and the gateway's own (`lib/http/gateway-responses.ts`, the CDK stack's
 * mock integrations and the local gateway).
 */

import type { AllowedOrigins } from '#lib/platform/origins.ts';

/** HTTP header names are case-insensitive; API Gateway passes them as the client sent them. */
export function header(
  headers: Record<string, string | undefined> | null | undefined,
  name: string,
): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

/**
 * Whether an `Accept` header admits `application/json`, the one media type the API answers in (RFC 9110
 * §12.5.1): the most specific range that covers it (`application/json`, else `application/*`, else `*\/*`)
 * decides, with a quality above 0. No header, or one without any media range (`type/subtype`), admits anything.
 */
export function acceptsJson(value: string | undefined): boolean {
  let ranges = 0;
  let best = -1;
  let quality = 1;
  for (const entry of (value ?? '').toLowerCase().split(',')) {
    const [range = '', ...parameters] = entry.split(';').map((part) => part.trim());
    if (!/^[^\s/]+\/[^\s/]+$/.test(range)) continue;
    ranges++;
    const rank = ['*/*', 'application/*', 'application/json'].indexOf(range);
    if (rank <= best) continue;
    best = rank;
    const weight = parameters.find((parameter) => parameter.startsWith('q='))?.slice(2);
    quality = weight === undefined || Number.isNaN(Number(weight)) ? 1 : Number(weight);
  }
  return ranges === 0 || (best >= 0 && quality > 0);
}

/** The request headers a browser may send across origins (the preflight's `Access-Control-Allow-Headers`). */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match'];

/** The response headers a browser script may read besides the CORS-safelisted ones (`Content-Type`, …). */
export const CORS_EXPOSE_HEADERS = ['ETag', 'Location', 'Retry-After', 'Idempotent-Replayed', 'X-Request-Id'];

/**
 * How long a browser may reuse a preflight answer (`Access-Control-Max-Age`), in seconds: ten minutes. Long
 * enough that a page pays one `OPTIONS` per path and method set now and then rather than before every call;
 * short enough that a change of the allowed origins, methods or headers reaches every browser within ten
 * minutes. Browsers cap it anyway (Chromium at two hours, Firefox at a day).
 */
export const CORS_MAX_AGE_SECONDS = 600;

/** The value of `Access-Control-Allow-Origin` for a request from `origin`, or undefined when it is not allowed. */
export function allowOrigin(allowed: AllowedOrigins, origin: string | undefined): string | undefined {
  if (allowed === '*') return '*';
  return origin !== undefined && allowed.includes(origin) ? origin : undefined;
}

/**
 * The CORS headers of an actual answer (not a preflight): who may read it, and which of its headers. With a
 * list of origins the answer depends on `Origin`, so it says so (`Vary`) to every cache, allowed or not.
 */
export function corsHeaders(allowed: AllowedOrigins, origin: string | undefined): Record<string, string> {
  const vary: Record<string, string> = allowed === '*' ? {} : { Vary: 'Origin' };
  const value = allowOrigin(allowed, origin);
  if (value === undefined) return vary;
  return {
    'Access-Control-Allow-Origin': value,
    'Access-Control-Expose-Headers': CORS_EXPOSE_HEADERS.join(', '),
    ...vary,
  };
}

/**
 * The answer to a preflight (`OPTIONS`) from `origin` on a path answering `methods`: every CORS header when the
 * origin is allowed, none (but `Vary`) when it is not; the browser then refuses the actual request itself.
 */
export function preflightHeaders(
  allowed: AllowedOrigins,
  origin: string | undefined,
  methods: readonly string[],
): Record<string, string> {
  const actual = corsHeaders(allowed, origin);
  if (!('Access-Control-Allow-Origin' in actual)) return actual;
  const { 'Access-Control-Expose-Headers': _expose, ...rest } = actual;
  return {
    ...rest,
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
}
