/**
 * The error middleware, around a tiny middy handler that throws (no I/O): which errors speak to the client,
 * with which status, body and headers, and that nothing else leaks.
 */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  NameTakenError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ServiceUnavailableError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#lib/http/errors.ts';
import { errorResponder } from '#lib/http/middleware.ts';

const event = { requestContext: { requestId: 'req-1' } } as APIGatewayProxyEvent;

/** Runs a handler that throws `error` through the middleware and returns the answer, its body parsed. */
async function answer(error: unknown) {
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(errorResponder())
    .handler(async () => {
      throw error;
    });
  const result = await handler(event, {} as Context);
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body), raw: result.body };
}

/** The shape middy's `createError` (`@middy/util`) and `http-errors` give their errors. */
const middyError = (statusCode: number, message: string, expose = statusCode < 500) =>
  Object.assign(new Error(message), { name: 'HttpError', status: statusCode, statusCode, expose });

const SERVER_ERROR = { message: 'Server Error.', status: 500 };

let logged: MockInstance;
let warned: MockInstance;
beforeEach(() => {
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  logged.mockRestore();
  warned.mockRestore();
});

describe('error middleware: the API’s own errors', () => {
  it.each([
    [new BadRequestError('The request body is not valid JSON.'), 400, 'The request body is not valid JSON.'],
    [new UnauthenticatedError(), 401, 'Unauthenticated.'],
    [new NotFoundError(), 404, 'Resource not found.'],
    [new PreconditionFailedError(), 412, 'The resource has been modified.'],
    [new PayloadTooLargeError(), 413, 'The request body must not be larger than 64 KiB.'],
    [
      new UnsupportedMediaTypeError(),
      415,
      'The request body must be application/x-www-form-urlencoded or application/json.',
    ],
  ])('answers %s with its status and message', async (error, status, message) => {
    // Act
    const reply = await answer(error);
    // Assess
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual({ message, status });
    expect(reply.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Request-Id': 'req-1',
    });
    expect(logged).not.toHaveBeenCalled();
  });

  it('answers a validation error with the field errors, the first message leading', async () => {
    // Act
    const reply = await answer(new ValidationError({ color: ['The color field is invalid.'], name: ['Too long.'] }));
    const taken = await answer(new NameTakenError());
    // Assess
    expect(reply.raw).toBe(
      '{"message":"The color field is invalid.","errors":{"color":["The color field is invalid."],"name":["Too long."]},"status":422}',
    );
    expect(taken.body).toEqual({
      message: 'The name has already been taken.',
      errors: { name: ['The name has already been taken.'] },
      status: 422,
    });
  });

  it('asks the client to retry a conflict and an unavailable dependency', async () => {
    // Act
    const conflict = await answer(new ConflictError());
    const unavailable = await answer(new ServiceUnavailableError(5));
    // Assess
    expect(conflict.status).toBe(409);
    expect(conflict.headers['Retry-After']).toBe('1');
    expect(conflict.body).toEqual({ message: expect.stringMatching(/in progress/), status: 409 });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers['Retry-After']).toBe('5');
    expect(unavailable.body).toEqual({ message: 'Service temporarily unavailable. Please retry.', status: 503 });
  });

  it('answers a DynamoDB throttle past the SDK’s retries with 503 and Retry-After, and warns', async () => {
    // Prepare
    const throttled = Object.assign(new Error('Rate exceeded for table t'), { name: 'ThrottlingException' });
    // Act
    const reply = await answer(throttled);
    // Assess
    expect(reply.status).toBe(503);
    expect(reply.headers['Retry-After']).toBe('1');
    expect(reply.raw).not.toContain('Rate exceeded');
    expect(warned).toHaveBeenCalledWith(expect.objectContaining({ message: 'Dependency unavailable' }));
  });
});

describe('error middleware: middy’s HTTP errors (statusCode + expose)', () => {
  it.each([
    [400, 'Invalid or malformed JSON was provided'],
    [404, 'Not Found'],
    [406, 'Unsupported Accept header'],
    [409, 'Already exists'],
    [422, 'Event object failed validation'],
    [429, 'Slow down'],
  ])('answers an exposed %i with that status and its message', async (status, message) => {
    // Act
    const reply = await answer(middyError(status, message));
    // Assess
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual({ message, status });
    expect(reply.headers['X-Request-Id']).toBe('req-1');
    expect(logged).not.toHaveBeenCalled();
  });

  it('says the generic message of the status when the error has none', async () => {
    // Act
    const notFound = await answer(middyError(404, ''));
    const notAcceptable = await answer(middyError(406, ''));
    const teapot = await answer(middyError(418, ''));
    // Assess: the catalogue's message of the status, or the generic 4xx one for a status it does not list.
    expect(notFound.body).toEqual({ message: 'Resource not found.', status: 404 });
    expect(notAcceptable.body).toEqual({
      message: 'Not Acceptable. The API answers application/json only.',
      status: 406,
    });
    expect(teapot.body).toEqual({ message: 'Bad Request.', status: 418 });
  });

  it.each([
    ['a 4xx that is not exposed', middyError(403, 'Key abc123 lacks scope', false)],
    ['an exposed 5xx', middyError(502, 'Upstream at 10.0.0.7 said no', true)],
    ['an exposed 500', middyError(500, 'Database password rejected', true)],
    ['an exposed status that is not an HTTP error', middyError(302, 'Redirecting to the secret place', true)],
    ['a status that is not a number', Object.assign(new Error('odd secret'), { statusCode: '404', expose: true })],
    ['an expose that is merely truthy', Object.assign(new Error('odd secret'), { statusCode: 404, expose: 'yes' })],
  ])('answers %s with a generic 500 that leaks nothing', async (_, error) => {
    // Act
    const reply = await answer(error);
    // Assess
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual(SERVER_ERROR);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: 'Unhandled error' }));
  });
});

describe('error middleware: anything else', () => {
  it.each([
    ['an Error', new Error('connect to db://admin:hunter2@10.0.0.1 failed')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'secret')")],
    ['a thrown string', 'hunter2'],
    ['a thrown object', { statusCode: 404, expose: true, message: 'not an Error' }],
    ['undefined', undefined],
  ])('answers %s with a generic 500, no message or stack in the body', async (_, error) => {
    // Act
    const reply = await answer(error);
    // Assess
    expect(reply.status).toBe(500);
    expect(reply.raw).toBe(JSON.stringify(SERVER_ERROR));
    expect(reply.headers).toEqual({
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Request-Id': 'req-1',
    });
  });

  it('logs the unexpected error as one structured entry, for the operator (the runtime adds the request id)', async () => {
    // Act
    await answer(new Error('boom'));
    // Assess: a single object argument, which Lambda's JSON log format keeps structured.
    expect(logged.mock.calls[0]).toHaveLength(1);
    const entry = logged.mock.calls[0]?.[0];
    expect(entry).toMatchObject({ message: 'Unhandled error', error: { name: 'Error', message: 'boom' } });
    expect(entry.error.stack).toContain('boom');
  });

  it('answers with the Lambda request id, the id on every log line of the invocation', async () => {
    // Prepare
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorResponder())
      .handler(async () => {
        throw new NotFoundError();
      });
    // Act
    const result = await handler(event, { awsRequestId: 'lambda-7' } as Context);
    // Assess
    expect(result.headers?.['X-Request-Id']).toBe('lambda-7');
  });
});
