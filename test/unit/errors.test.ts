/**
 * The error catalogue and what is built from it: the error classes and API Gateway's own answers. The
 * contract's messages are spelled out here on purpose, so a change to the catalogue is a visible change.
 */
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  errorBody,
  errorCatalogue,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ServiceUnavailableError,
  UnauthenticatedError,
  ValidationError,
} from '#lib/http/errors.ts';
import { gatewayResponseBody, gatewayResponses } from '#lib/http/gateway-responses.ts';

describe('error catalogue', () => {
  it('has the contract’s statuses and messages', () => {
    // Assess
    expect(errorBody('unauthenticated')).toEqual({ message: 'Unauthenticated.', status: 401 });
    expect(errorBody('forbidden')).toEqual({ message: 'This action is unauthorized.', status: 403 });
    expect(errorBody('notFound')).toEqual({ message: 'Resource not found.', status: 404 });
    expect(errorBody('conflict').status).toBe(409);
    expect(errorBody('preconditionFailed')).toEqual({ message: 'The resource has been modified.', status: 412 });
    expect(errorBody('tooManyRequests')).toEqual({ message: 'Too Many Requests.', status: 429 });
    expect(errorBody('serverError')).toEqual({ message: 'Server Error.', status: 500 });
    expect(errorBody('serviceUnavailable')).toEqual({
      message: 'Service temporarily unavailable. Please retry.',
      status: 503,
    });
  });

  it('gives each kind its own status, an error status, and a message that ends a sentence', () => {
    // Prepare
    const entries = Object.values(errorCatalogue);
    // Assess
    expect(new Set(entries.map((entry) => entry.status)).size).toBe(entries.length);
    for (const { status, message } of entries) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('asks for a retry exactly where waiting helps: 409, 429 and 503', () => {
    // Act
    const retried = Object.values(errorCatalogue)
      .filter((entry) => 'retryAfter' in entry)
      .map((entry) => entry.status);
    // Assess
    expect(retried).toEqual([409, 429, 503]);
  });

  it('builds the error classes from it', () => {
    // Assess
    for (const [error, kind] of [
      [new UnauthenticatedError(), 'unauthenticated'],
      [new NotFoundError(), 'notFound'],
      [new PreconditionFailedError(), 'preconditionFailed'],
      [new ConflictError(), 'conflict'],
      [new ServiceUnavailableError(), 'serviceUnavailable'],
    ] as const) {
      expect(error.body()).toEqual(errorBody(kind));
    }
    expect(new ConflictError().headers).toEqual({ 'Retry-After': '1' });
    expect(new ServiceUnavailableError(7).headers).toEqual({ 'Retry-After': '7' });
    expect(new NotFoundError().headers).toEqual({});
    expect(new ValidationError({}).body()).toEqual({ message: 'The given data was invalid.', errors: {}, status: 422 });
  });
});

describe('gateway responses', () => {
  it('refuse a key without the route’s scope with 403, and an unknown key with 401', () => {
    // Assess
    expect(gatewayResponses.ACCESS_DENIED).toEqual({ statusCode: 403, message: 'This action is unauthorized.' });
    expect(gatewayResponses.UNAUTHORIZED).toEqual({ statusCode: 401, message: 'Unauthenticated.' });
    expect(gatewayResponseBody('ACCESS_DENIED')).toEqual({ message: 'This action is unauthorized.', status: 403 });
  });

  it('answer throttling and a failed authorizer with Retry-After', () => {
    // Assess
    expect(gatewayResponses.THROTTLED).toEqual({
      statusCode: 429,
      message: 'Too Many Requests.',
      headers: { 'Retry-After': '1' },
    });
    expect(gatewayResponses.QUOTA_EXCEEDED.headers).toEqual({ 'Retry-After': '60' });
    expect(gatewayResponses.AUTHORIZER_FAILURE).toEqual({
      statusCode: 503,
      message: 'Service temporarily unavailable. Please retry.',
      headers: { 'Retry-After': '1' },
    });
  });

  it('say a body is too large in the handlers’ words', () => {
    // Assess: API Gateway's own 413 (past its 10 MB payload limit) and the handlers' (past 64 KiB) are one
    expect(gatewayResponseBody('REQUEST_TOO_LARGE')).toEqual(new PayloadTooLargeError().body());
    expect(gatewayResponseBody('REQUEST_TOO_LARGE')).toEqual({
      message: 'The request body must not be larger than 64 KiB.',
      status: 413,
    });
  });

  it('say only what the catalogue says', () => {
    // Prepare
    const catalogued = Object.values(errorCatalogue).map((entry) => `${entry.status} ${entry.message}`);
    // Assess
    for (const [type, response] of Object.entries(gatewayResponses)) {
      expect(catalogued, type).toContain(`${response.statusCode} ${response.message}`);
      expect(gatewayResponseBody(type as keyof typeof gatewayResponses)).toEqual({
        message: response.message,
        status: response.statusCode,
      });
    }
  });
});
