/** The middy middlewares every API handler runs, in this order: errors last, so they see everything. */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { HttpError, ServiceUnavailableError } from '#lib/errors.ts';
import { log } from '#lib/log.ts';
import { isTransientAwsError } from './transient.ts';

export type Reply = { statusCode: number; body: unknown };

const baseHeaders = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return { statusCode, headers: { ...baseHeaders, ...headers }, body: JSON.stringify(body) };
}

const SERVER_ERROR = { message: 'Server Error.', status: 500 };

/** Maps any error to the JSON error contract. Only HttpErrors speak to the client; the rest are logged. */
export function errorResponder(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      const requestId = request.event.requestContext?.requestId;
      const known =
        error instanceof HttpError ? error : isTransientAwsError(error) ? new ServiceUnavailableError() : null;
      if (known?.status === 503) log('warn', 'Dependency unavailable', { requestId, error: String(error?.name) });
      if (known) {
        request.response = jsonResponse(known.status, known.body(), {
          ...known.headers,
          'X-Request-Id': String(requestId),
        });
        return;
      }
      log('error', 'Unhandled error', {
        requestId,
        error: { name: error?.name, message: error?.message, stack: error?.stack },
      });
      request.response = jsonResponse(500, SERVER_ERROR, { 'X-Request-Id': String(requestId) });
    },
  };
}

/** Serializes the handler's reply; the handler only returns a status and a body. */
export function replySerializer(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    after: async (request) => {
      const reply = request.response as unknown as Reply;
      request.response = jsonResponse(reply.statusCode, reply.body, {
        'X-Request-Id': String(request.event.requestContext?.requestId),
      });
    },
  };
}
