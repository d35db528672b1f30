/** The middy middlewares every API handler runs (`lib/http/handler.ts` puts them in order). */
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { errorBody, errorCatalogue, HttpError, ServiceUnavailableError } from '#lib/http/errors.ts';
import { log } from '#lib/platform/log.ts';
import type { AllowedOrigins } from '#lib/platform/origins.ts';
import { httpErrorOf, type KindErrors } from './data-errors.ts';
import { corsHeaders, header } from './headers.ts';
import { isTransientAwsError } from './transient.ts';

/** A handler's answer: a status, a JSON body (none for 304) and headers of its own (`ETag`, say). */
export type Reply = { statusCode: number; body: unknown; headers?: Record<string, string> };

const baseHeaders = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' };

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return { statusCode, headers: { ...baseHeaders, ...headers }, body: JSON.stringify(body) };
}

/**
 * Middy's HTTP errors (`createError` of `@middy/util`, or `http-errors`) carry `statusCode` and `expose`: an
 * exposed 4xx was written for the client, so a middy middleware's refusal is answered as such.
 */
function exposedClientError(error: unknown): HttpError | null {
  if (!(error instanceof Error)) return null;
  const { statusCode, expose } = error as { statusCode?: unknown; expose?: unknown };
  if (expose !== true || typeof statusCode !== 'number' || !Number.isInteger(statusCode)) return null;
  if (statusCode < 400 || statusCode > 499) return null;
  const generic = Object.values(errorCatalogue).find((entry) => entry.status === statusCode)?.message;
  return new HttpError(statusCode, error.message || (generic ?? errorCatalogue.badRequest.message));
}

/** The error as the client may see it, or null when it must become a generic 500. */
function clientError(error: unknown, kindErrors?: KindErrors): HttpError | null {
  if (error instanceof HttpError) return error;
  const domain = httpErrorOf(error, kindErrors);
  if (domain) return domain;
  if (isTransientAwsError(error)) return new ServiceUnavailableError();
  return exposedClientError(error);
}

type Request = { event: APIGatewayProxyEvent; context?: { awsRequestId?: string } };

/**
 * The id a client quotes: the Lambda request id, which the runtime puts on every log line of the invocation
 * (JSON log format), so `X-Request-Id` finds the logs directly.
 */
const requestIdOf = (request: Request) =>
  String(request.context?.awsRequestId ?? request.event.requestContext?.requestId);

/** Maps any error to the JSON error contract. Only client errors speak to the client; the rest are logged. */
export function errorResponder(kindErrors?: KindErrors): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      const requestId = requestIdOf(request);
      const known = clientError(error, kindErrors);
      if (known?.status === 503) log('warn', 'Dependency unavailable', { error: String(error?.name) });
      if (known) {
        request.response = jsonResponse(known.status, known.body(), {
          ...known.headers,
          'X-Request-Id': requestId,
        });
        return;
      }
      log('error', 'Unhandled error', {
        error: { name: error?.name, message: error?.message, stack: error?.stack },
      });
      request.response = jsonResponse(errorCatalogue.serverError.status, errorBody('serverError'), {
        'X-Request-Id': requestId,
      });
    },
  };
}

/** Serializes the handler's reply: JSON, or a 304 without a body (RFC 9110: it has none). */
export function replySerializer(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    after: async (request) => {
      const reply = request.response as unknown as Reply;
      const headers = { ...reply.headers, 'X-Request-Id': requestIdOf(request) };
      request.response =
        reply.statusCode === 304
          ? { statusCode: 304, headers: { 'Cache-Control': baseHeaders['Cache-Control'], ...headers }, body: '' }
          : jsonResponse(reply.statusCode, reply.body, headers);
    },
  };
}

export type CorsResponder = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> & {
  /** Sets who may read the answers (the configuration's `corsAllowedOrigins`); `*` until then. */
  allow(origins: AllowedOrigins): void;
};

/**
 * Adds the CORS headers to every answer, success or error (`lib/http/headers.ts`): first in the stack, so it
 * runs after the serializer and after the error responder, on the response they made.
 */
export function corsResponder(): CorsResponder {
  let allowed: AllowedOrigins = '*';
  const addHeaders = async (request: { event: APIGatewayProxyEvent; response?: APIGatewayProxyResult | null }) => {
    if (!request.response) return;
    const cors = corsHeaders(allowed, header(request.event.headers, 'origin'));
    request.response = { ...request.response, headers: { ...request.response.headers, ...cors } };
  };
  return {
    allow(origins) {
      allowed = origins;
    },
    after: addHeaders,
    onError: addHeaders,
  };
}
