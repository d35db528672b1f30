/**
 * API Gateway's own answers (before or instead of a Lambda), in the API's JSON error contract, built from the
 * error catalogue (`lib/errors.ts`). Read by the CDK stack (gateway responses) and the local gateway, so both
 * answer alike.
 */
import { type ErrorKind, errorCatalogue, errorHeaders } from '#lib/errors.ts';

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
