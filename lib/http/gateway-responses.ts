/**
 * API Gateway's own answers (before or instead of a Lambda), in the API's JSON error contract, built from the
 * error catalogue (`lib/http/errors.ts`), and the headers every one of them carries (the request id, CORS). Read by
 * the CDK stack (gateway responses) and the local gateway, so both answer alike.
 */
import { type ErrorKind, errorCatalogue, errorHeaders } from '#lib/http/errors.ts';
import { CORS_EXPOSE_HEADERS } from '#lib/http/headers.ts';
import type { AllowedOrigins } from '#lib/platform/origins.ts';

export type GatewayResponse = { statusCode: number; message: string; headers?: Record<string, string> };

/** Each response type's kind of error, and its own `Retry-After` when it differs from the kind's. */
const kinds = {
  UNAUTHORIZED: ['unauthenticated'],
  /** The authorizer's policy does not cover the route: the key lacks the scope. */
  ACCESS_DENIED: ['forbidden'],
  /** API Gateway's answer for an unknown route or method. */
  MISSING_AUTHENTICATION_TOKEN: ['notFound'],
  RESOURCE_NOT_FOUND: ['notFound'],
  THROTTLED: ['tooManyRequests'],
  /** A usage plan's quota: retry after a minute rather than a second. */
  QUOTA_EXCEEDED: ['tooManyRequests', 60],
  REQUEST_TOO_LARGE: ['payloadTooLarge'],
  UNSUPPORTED_MEDIA_TYPE: ['unsupportedMediaType'],
  BAD_REQUEST_BODY: ['badRequest'],
  BAD_REQUEST_PARAMETERS: ['badRequest'],
  /** The authorizer could not decide (e.g. its lookup failed): fail closed, and ask the client to retry. */
  AUTHORIZER_FAILURE: ['serviceUnavailable'],
  AUTHORIZER_CONFIGURATION_ERROR: ['serviceUnavailable'],
  INTEGRATION_TIMEOUT: ['gatewayTimeout'],
  INTEGRATION_FAILURE: ['badGateway'],
  DEFAULT_4XX: ['badRequest'],
  DEFAULT_5XX: ['serverError'],
} as const satisfies Record<string, readonly [ErrorKind, number?]>;

export type GatewayResponseType = keyof typeof kinds;

function gatewayResponse([kind, retryAfter]: readonly [ErrorKind, number?]): GatewayResponse {
  const { status, message } = errorCatalogue[kind];
  const headers = errorHeaders(kind, retryAfter);
  return { statusCode: status, message, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

export const gatewayResponses = Object.fromEntries(
  Object.entries(kinds).map(([type, entry]) => [type, gatewayResponse(entry)]),
) as Record<GatewayResponseType, GatewayResponse>;

export const gatewayResponseBody = (type: GatewayResponseType) => {
  const { statusCode, message } = gatewayResponses[type];
  return { message, status: statusCode };
};

/** Where a header of the gateway's own answers takes its value: fixed, a request header, or the request id. */
export type HeaderSource = { value: string } | { requestHeader: string } | { requestId: true };

/**
 * The headers API Gateway adds to every gateway response: `X-Request-Id` (its request id, which its access log
 * records) and the CORS headers. A gateway response maps headers but runs no template, so it cannot compare
 * the request's `Origin` with a list: with a list of origins it echoes `Origin` (and says `Vary: Origin`). That
 * lets any page read an error of the gateway's own (401, 403, 404, 429, 5xx), a fixed body that tells it
 * nothing; the preflight still refuses other origins, so their pages never send a key, and every answer that
 * carries data (the handlers', the document) names allowed origins only.
 */
export function gatewayHeaders(allowed: AllowedOrigins): Record<string, HeaderSource> {
  return {
    'X-Request-Id': { requestId: true },
    'Access-Control-Allow-Origin': allowed === '*' ? { value: '*' } : { requestHeader: 'Origin' },
    'Access-Control-Expose-Headers': { value: CORS_EXPOSE_HEADERS.join(', ') },
    ...(allowed === '*' ? {} : { Vary: { value: 'Origin' } }),
  };
}

/** The headers' values for one request, as API Gateway fills them in (a missing request header adds none). */
export function resolveHeaders(
  sources: Record<string, HeaderSource>,
  request: { requestId: string; header: (name: string) => string | undefined },
): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, source] of Object.entries(sources)) {
    const value =
      'value' in source
        ? source.value
        : 'requestHeader' in source
          ? request.header(source.requestHeader)
          : request.requestId;
    if (value !== undefined) resolved[name] = value;
  }
  return resolved;
}
