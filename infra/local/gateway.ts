/**
 * The local API Gateway: reads the shared route table, builds the REST (v1) proxy event AWS would,
 * runs the authorizer (cached per key for a while, as API Gateway does) and then the route's handler.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { type GatewayResponseType, gatewayResponseBody, gatewayResponses } from '#lib/gateway-responses.ts';
import { publishedDocument } from '#lib/openapi/public.ts';
import { authorizerHandler, matchRoute } from '#lib/routes.ts';
import { functionEntry } from '../bundling.ts';
import { createRateLimiter } from './rate-limit.ts';

type Handler<E, R> = (event: E, context: Context) => Promise<R>;
type ApiHandler = Handler<APIGatewayProxyEvent, APIGatewayProxyResult>;
type AuthorizerHandler = Handler<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>;

export type GatewayOptions = {
  port?: number;
  host?: string;
  /** How long an authorizer answer is reused for the same Authorization header. */
  authCacheTtlSeconds?: number;
  /** One line per request on stdout. */
  logRequests?: boolean;
  /** Requests per minute per Authorization value before 429, as AWS WAF enforces (none when unset or 0). */
  rateLimitPerMinute?: number;
};

export type Gateway = { url: string; server: Server; close: () => Promise<void> };

/** API Gateway's payload limit; the handlers enforce the API's own, smaller limit. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
const STAGE = 'local';

const modules = new Map<string, Promise<{ handler: unknown }>>();
/** The very same handler modules the Lambdas bundle, imported on first use like a cold start. */
function loadHandler<T>(name: string): Promise<T> {
  let module = modules.get(name);
  if (!module) {
    module = import(/* @vite-ignore */ pathToFileURL(functionEntry(name)).href);
    modules.set(name, module);
  }
  return module.then((loaded) => loaded.handler as T);
}

function lambdaContext(name: string, requestId: string): Context {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(
  res: ServerResponse,
  statusCode: number,
  headers: Record<string, string | number | boolean>,
  body: string,
) {
  res.writeHead(statusCode, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function sendGatewayResponse(res: ServerResponse, type: GatewayResponseType) {
  const { statusCode, headers } = gatewayResponses[type] as { statusCode: number; headers?: Record<string, string> };
  send(res, statusCode, { 'Content-Type': 'application/json', ...headers }, JSON.stringify(gatewayResponseBody(type)));
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > GATEWAY_MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function headerMaps(req: IncomingMessage) {
  // Prototype-free: a header or query key named `__proto__` is data, as in the JSON event AWS sends.
  const headers: Record<string, string> = Object.create(null);
  const multiValueHeaders: Record<string, string[]> = Object.create(null);
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    const value = req.rawHeaders[i + 1] as string;
    // The gateway sets the scheme itself, whatever the client sent.
    if (name.toLowerCase() === 'x-forwarded-proto') continue;
    headers[name] = value;
    multiValueHeaders[name] = [...(multiValueHeaders[name] ?? []), value];
  }
  headers['X-Forwarded-Proto'] = 'http';
  multiValueHeaders['X-Forwarded-Proto'] = ['http'];
  return { headers, multiValueHeaders };
}

function queryMaps(search: URLSearchParams) {
  const single: Record<string, string> = Object.create(null);
  const multi: Record<string, string[]> = Object.create(null);
  for (const [key, value] of search) {
    single[key] = value;
    multi[key] = [...(multi[key] ?? []), value];
  }
  const empty = Object.keys(single).length === 0;
  return { queryStringParameters: empty ? null : single, multiValueQueryStringParameters: empty ? null : multi };
}

/** Does an IAM-style resource pattern (with `*`) cover this method ARN? */
const resourceCovers = (pattern: string, arn: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(arn);

function allows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  return result.policyDocument.Statement.some((statement) => {
    const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
    return statement.Effect === 'Allow' && resources.some((resource) => resourceCovers(String(resource), methodArn));
  });
}

export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const { port = 3000, host = '127.0.0.1', authCacheTtlSeconds = 60, logRequests = true } = options;
  const authCache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  const { rateLimitPerMinute: perMinute = 0 } = options; // 0: no limit; anything else but a positive integer throws
  const limiter = perMinute === 0 ? undefined : createRateLimiter({ limit: perMinute });

  async function authorize(
    event: APIGatewayProxyEvent,
    requestId: string,
  ): Promise<APIGatewayAuthorizerResult | GatewayResponseType> {
    const identity = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    // Like API Gateway: without the identity source the authorizer is not called at all.
    if (!identity) return 'UNAUTHORIZED';
    const methodArn = `arn:aws:execute-api:local:000000000000:local/${STAGE}/${event.httpMethod}${event.path}`;
    const cached = authCache.get(identity);
    let result = cached && cached.expires > Date.now() ? cached.result : undefined;
    if (!result) {
      const authorizer = await loadHandler<AuthorizerHandler>(authorizerHandler);
      try {
        result = await authorizer(
          {
            type: 'REQUEST',
            methodArn,
            resource: event.resource,
            path: event.path,
            httpMethod: event.httpMethod,
            headers: event.headers,
            multiValueHeaders: event.multiValueHeaders,
            queryStringParameters: event.queryStringParameters,
            multiValueQueryStringParameters: event.multiValueQueryStringParameters,
            pathParameters: event.pathParameters,
            stageVariables: null,
            requestContext: event.requestContext,
          } as APIGatewayRequestAuthorizerEvent,
          lambdaContext(authorizerHandler, requestId),
        );
      } catch (error) {
        return (error as Error)?.message === 'Unauthorized' ? 'UNAUTHORIZED' : 'AUTHORIZER_FAILURE';
      }
      if (authCacheTtlSeconds > 0)
        authCache.set(identity, { result, expires: Date.now() + authCacheTtlSeconds * 1000 });
    }
    return allows(result, methodArn) ? result : 'ACCESS_DENIED';
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    // The OpenAPI document and its reference page: public, like the static file published on AWS.
    const document = await publishedDocument(method, url.pathname);
    if (document) {
      send(res, document.statusCode, document.headers, document.body);
      return document.statusCode;
    }
    const match = matchRoute(method, url.pathname);
    if (!match) {
      sendGatewayResponse(res, 'MISSING_AUTHENTICATION_TOKEN');
      return 404;
    }
    const body = await readBody(req);
    if (body === null) {
      sendGatewayResponse(res, 'REQUEST_TOO_LARGE');
      return 413;
    }
    const requestId = randomUUID();
    const { headers, multiValueHeaders } = headerMaps(req);
    const event: APIGatewayProxyEvent = {
      resource: match.route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      ...queryMaps(url.searchParams),
      pathParameters: match.pathParameters,
      stageVariables: null,
      body: body.length > 0 ? body.toString('utf8') : null,
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        authorizer: null,
        domainName: req.headers.host ?? `${host}:${port}`,
        httpMethod: method,
        identity: {
          sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        } as APIGatewayProxyEvent['requestContext']['identity'],
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        requestId,
        requestTimeEpoch: Date.now(),
        resourceId: 'local',
        resourcePath: match.route.path,
        stage: STAGE,
      },
    };
    // Like the WAF rule: per Authorization value, before the authorizer; no header goes on to the 401.
    const limit = limiter && req.headers.authorization ? limiter.take(req.headers.authorization) : undefined;
    if (limit && !limit.allowed) {
      const { statusCode } = gatewayResponses.THROTTLED;
      const headers = { 'Content-Type': 'application/json', 'Retry-After': limit.retryAfterSeconds };
      send(res, statusCode, headers, JSON.stringify(gatewayResponseBody('THROTTLED')));
      return statusCode;
    }
    const authorization = await authorize(event, requestId);
    if (typeof authorization === 'string') {
      sendGatewayResponse(res, authorization);
      return gatewayResponses[authorization].statusCode;
    }
    event.requestContext.authorizer = { principalId: authorization.principalId, ...authorization.context };
    const handler = await loadHandler<ApiHandler>(match.route.handler);
    const result = await handler(event, lambdaContext(match.route.name, requestId));
    send(res, result.statusCode, { ...(result.headers ?? {}) }, result.body);
    return result.statusCode;
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    handle(req, res)
      .catch((error) => {
        // A handler that throws past its middleware is a Lambda failure: API Gateway answers 502.
        console.error(error);
        if (!res.headersSent) sendGatewayResponse(res, 'INTEGRATION_FAILURE');
        return 502;
      })
      .then((status) => {
        if (logRequests) {
          const ms = (performance.now() - started).toFixed(1);
          console.log(`${req.method} ${req.url?.split('?')[0]} ${status} ${ms}ms`);
        }
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
