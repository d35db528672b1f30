/**
 * API Gateway's own answers (before or instead of a Lambda), in the API's JSON error contract.
 * Read by the CDK stack (gateway responses) and the local gateway, so both answer alike.
 */
export type GatewayResponse = { statusCode: number; message: string; headers?: Record<string, string> };

export const gatewayResponses = {
  UNAUTHORIZED: { statusCode: 401, message: 'Unauthenticated.' },
  ACCESS_DENIED: { statusCode: 401, message: 'Unauthenticated.' },
  /** API Gateway's answer for an unknown route or method. */
  MISSING_AUTHENTICATION_TOKEN: { statusCode: 404, message: 'Resource not found.' },
  RESOURCE_NOT_FOUND: { statusCode: 404, message: 'Resource not found.' },
  THROTTLED: { statusCode: 429, message: 'Too Many Requests.', headers: { 'Retry-After': '1' } },
  QUOTA_EXCEEDED: { statusCode: 429, message: 'Too Many Requests.', headers: { 'Retry-After': '60' } },
  REQUEST_TOO_LARGE: { statusCode: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { statusCode: 415, message: 'Unsupported Media Type.' },
  BAD_REQUEST_BODY: { statusCode: 400, message: 'Bad Request.' },
  BAD_REQUEST_PARAMETERS: { statusCode: 400, message: 'Bad Request.' },
  /** The authorizer could not decide (e.g. its lookup failed): fail closed, and ask the client to retry. */
  AUTHORIZER_FAILURE: {
    statusCode: 503,
    message: 'Service temporarily unavailable. Please retry.',
    headers: { 'Retry-After': '1' },
  },
  AUTHORIZER_CONFIGURATION_ERROR: {
    statusCode: 503,
    message: 'Service temporarily unavailable. Please retry.',
    headers: { 'Retry-After': '1' },
  },
  INTEGRATION_TIMEOUT: { statusCode: 504, message: 'Gateway Timeout.' },
  INTEGRATION_FAILURE: { statusCode: 502, message: 'Bad Gateway.' },
  DEFAULT_4XX: { statusCode: 400, message: 'Bad Request.' },
  DEFAULT_5XX: { statusCode: 500, message: 'Server Error.' },
} as const satisfies Record<string, GatewayResponse>;

export type GatewayResponseType = keyof typeof gatewayResponses;

export const gatewayResponseBody = (type: GatewayResponseType) => {
  const { statusCode, message } = gatewayResponses[type];
  return { message, status: statusCode };
};
