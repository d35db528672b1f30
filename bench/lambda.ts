/**
 * Invoking the handlers in-process as Lambda would: API Gateway REST (v1) proxy events built the way the local
 * gateway builds them, and SDK middleware on the shared DynamoDB client that records every call.
 * Modules that read configuration are imported lazily, so the caller sets the environment first.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { FinalizeHandlerArguments, InitializeHandlerArguments, MiddlewareStack } from '@smithy/types';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { functionEntry } from '#infra/bundling.ts';
import { authorizerHandler, matchRoute } from '#lib/routes.ts';

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
  context: Context,
) => Promise<APIGatewayAuthorizerResult>;

const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';
const STAGE = 'prod';

/** A handler module from its source, by route name (or the authorizer). */
export async function loadHandler<Handler>(handler: string): Promise<Handler> {
  const module = (await import(pathToFileURL(functionEntry(handler)).href)) as { handler: Handler };
  return module.handler;
}

export function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The headers API Gateway passes through from a typical client behind CloudFront. */
function requestHeaders(extra: Record<string, string>): Record<string, string> {
  return {
    Accept: 'application/json',
    'Accept-Encoding': 'gzip, deflate, br',
    'CloudFront-Forwarded-Proto': 'https',
    'CloudFront-Is-Desktop-Viewer': 'true',
    'CloudFront-Viewer-Country': 'NL',
    Host: HOST,
    'User-Agent': 'curl/8.5.0',
    Via: '2.0 4f2b1c.cloudfront.net (CloudFront)',
    'X-Amz-Cf-Id': 'bench-cf-id',
    'X-Amzn-Trace-Id': `Root=1-${randomUUID().slice(0, 8)}-${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    'X-Forwarded-For': '203.0.113.10, 130.176.0.1',
    'X-Forwarded-Port': '443',
    'X-Forwarded-Proto': 'https',
    ...extra,
  };
}

export type ApiRequestSpec = {
  method: string;
  /** Path under the stage, with the query string if any: `/api/v1/spaces?page=2`. */
  url: string;
  /** The authorizer's context: who the key belongs to. */
  owner: string;
  form?: Record<string, string>;
};

/** The REST v1 proxy event API Gateway sends after the authorizer allowed the request. */
export function apiEvent({ method, url, owner, form }: ApiRequestSpec): APIGatewayProxyEvent {
  const parsed = new URL(url, `https://${HOST}`);
  const match = matchRoute(method, parsed.pathname);
  if (!match) throw new Error(`No route for ${method} ${parsed.pathname}`);
  const body = form ? new URLSearchParams(form).toString() : null;
  const headers = requestHeaders({
    Authorization: 'Bearer dsk_benchmark',
    ...(body === null ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
  });
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [key, value] of parsed.searchParams) {
    single[key] = value;
    multi[key] = [...(multi[key] ?? []), value];
  }
  const hasQuery = Object.keys(single).length > 0;
  const requestId = randomUUID();
  return {
    resource: match.route.path,
    path: parsed.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: hasQuery ? single : null,
    multiValueQueryStringParameters: hasQuery ? multi : null,
    pathParameters: match.pathParameters,
    stageVariables: null,
    body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'abc123',
      authorizer: { principalId: owner, ownerId: owner, integrationLatency: 12 },
      domainName: HOST,
      domainPrefix: 'abc123',
      extendedRequestId: 'bench',
      httpMethod: method,
      identity: {
        sourceIp: '203.0.113.10',
        userAgent: 'curl/8.5.0',
      } as APIGatewayProxyEvent['requestContext']['identity'],
      path: `/${STAGE}${parsed.pathname}`,
      protocol: 'HTTP/1.1',
      requestId,
      requestTime: new Date().toUTCString(),
      requestTimeEpoch: Date.now(),
      resourceId: 'abc123',
      resourcePath: match.route.path,
      stage: STAGE,
    },
  };
}

/** A link from a response (`links.next`), as the path under the stage to request next. */
export function followLink(link: string): string {
  const url = new URL(link);
  const path = url.pathname.startsWith(`/${STAGE}/`) ? url.pathname.slice(STAGE.length + 1) : url.pathname;
  return `${path}${url.search}`;
}

/** The REQUEST authorizer's event for a key on a route. */
export function authorizerEvent(
  key: string,
  method = 'GET',
  path = '/api/v1/spaces',
): APIGatewayRequestAuthorizerEvent {
  const api = apiEvent({ method, url: path, owner: 'unused' });
  const headers = { ...api.headers, Authorization: `Bearer ${key}` };
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:eu-west-1:000000000000:abc123/${STAGE}/${method}${path}`,
    resource: api.resource,
    path: api.path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: api.pathParameters,
    stageVariables: null,
    requestContext: { ...api.requestContext, authorizer: undefined },
  } as APIGatewayRequestAuthorizerEvent;
}

export const authorizerName = authorizerHandler;

export type DynamoCall = { command: string; start: number; end: number; scannedCount?: number };

/**
 * Records the DynamoDB calls made through a client: each call's command and timing, the wall time during
 * which at least one call was in flight (whole SDK call, and the HTTP exchange alone), and the number of
 * sequential round trips (a call that starts while another is in flight shares its round trip).
 */
export class DynamoRecorder {
  calls: DynamoCall[] = [];
  rounds = 0;
  /** Wall time inside `send` (SDK work plus the HTTP exchange), parallel calls counted once. */
  sdkMs = 0;
  /** Wall time of the HTTP exchanges alone. */
  httpMs = 0;
  private sdkActive = 0;
  private sdkSince = 0;
  private httpActive = 0;
  private httpSince = 0;

  reset(): void {
    this.calls = [];
    this.rounds = 0;
    this.sdkMs = 0;
    this.httpMs = 0;
  }

  commands(): string[] {
    return this.calls
      .slice()
      .sort((a, b) => a.start - b.start)
      .map((call) => call.command.replace(/Command$/, ''));
  }

  scanned(): number {
    return this.calls.reduce((sum, call) => sum + (call.scannedCount ?? 0), 0);
  }

  /** Adds the middleware to a client's stack; returns the function that removes it. */
  attach(stack: MiddlewareStack<object, object>): () => void {
    const outer = 'benchRecorderOuter';
    const inner = 'benchRecorderInner';
    stack.add(
      (next, context) => async (args: InitializeHandlerArguments<object>) => {
        const call: DynamoCall = { command: String(context.commandName), start: performance.now(), end: 0 };
        if (this.sdkActive++ === 0) {
          this.sdkSince = call.start;
          this.rounds++;
        }
        try {
          const result = await next(args);
          const scanned = (result.output as { ScannedCount?: number }).ScannedCount;
          if (scanned !== undefined) call.scannedCount = scanned;
          return result;
        } finally {
          call.end = performance.now();
          if (--this.sdkActive === 0) this.sdkMs += call.end - this.sdkSince;
          this.calls.push(call);
        }
      },
      { step: 'initialize', priority: 'high', name: outer },
    );
    // Last in the deserialize step: right around the HTTP request itself.
    stack.add(
      (next) => async (args: FinalizeHandlerArguments<object>) => {
        const start = performance.now();
        if (this.httpActive++ === 0) this.httpSince = start;
        try {
          return await next(args);
        } finally {
          if (--this.httpActive === 0) this.httpMs += performance.now() - this.httpSince;
        }
      },
      { step: 'deserialize', priority: 'low', name: inner },
    );
    return () => {
      stack.remove(outer);
      stack.remove(inner);
    };
  }
}
