/**
 * The local API Gateway: reads the shared route table, builds the REST (v1) proxy event AWS would,
 * runs the authorizer (cached per key for a while, as API Gateway does) and then the route's handler.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent } from 'aws-lambda';
import type { Config } from '#lib/config.ts';
import { createDb, type Db } from '#lib/dynamodb.ts';
import { type GatewayResponseType, gatewayResponseBody, gatewayResponses } from '#lib/gateway-responses.ts';
import { publishedDocument } from '#lib/openapi/public.ts';
import { authorizerHandler, matchRoute } from '#lib/routes.ts';
import {
  type ApiHandler,
  type AuthorizerHandler,
  apiEvent,
  authorizedEvent,
  authorizerEvent,
  header,
  invoke,
  lambdaContext,
  loadFunction,
  methodArn,
  policyAllows,
} from './lambda.ts';
import { createRateLimiter } from './rate-limit.ts';

export type GatewayOptions = {
  /** The functions' configuration, as the stack would set their environment. */
  config: Config;
  /** One client shared by every function (tests observe or fault it); by default one is made from `config`. */
  db?: Db;
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

/** The client's headers as pairs; the gateway sets the scheme itself, whatever the client sent. */
function headerPairs(req: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    if (name.toLowerCase() !== 'x-forwarded-proto') pairs.push([name, req.rawHeaders[i + 1] as string]);
  }
  pairs.push(['X-Forwarded-Proto', 'http']);
  return pairs;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const { config, port = 3000, host = '127.0.0.1', authCacheTtlSeconds = 60, logRequests = true } = options;
  const db = options.db ?? createDb(config);
  const authCache = new Map<string, { result: APIGatewayAuthorizerResult; expires: number }>();
  /** Known once listening (the port may be 0: any free one). */
  let origin = '';
  const { rateLimitPerMinute: perMinute = 0 } = options; // 0: no limit; anything else but a positive integer throws
  const limiter = perMinute === 0 ? undefined : createRateLimiter({ limit: perMinute });

  /** Each function is initialised on first use, like a cold start, and kept warm afterwards. */
  const functions = new Map<string, Promise<unknown>>();
  function warm<Handler>(name: string): Promise<Handler> {
    let loaded = functions.get(name);
    if (!loaded) {
      loaded = loadFunction<Handler>(name, config, db);
      functions.set(name, loaded);
    }
    return loaded as Promise<Handler>;
  }

  async function authorize(event: APIGatewayProxyEvent): Promise<APIGatewayAuthorizerResult | GatewayResponseType> {
    const identity = header(event.headers, 'authorization');
    // Like API Gateway: without the identity source the authorizer is not called at all.
    if (!identity) return 'UNAUTHORIZED';
    const cached = authCache.get(identity);
    let result = cached && cached.expires > Date.now() ? cached.result : undefined;
    if (!result) {
      const authorizer = await warm<AuthorizerHandler>(authorizerHandler);
      try {
        const context = lambdaContext(authorizerHandler, event.requestContext.requestId);
        result = await invoke(authorizerHandler, () => authorizer(authorizerEvent(event), context));
      } catch (error) {
        return (error as Error)?.message === 'Unauthorized' ? 'UNAUTHORIZED' : 'AUTHORIZER_FAILURE';
      }
      if (authCacheTtlSeconds > 0)
        authCache.set(identity, { result, expires: Date.now() + authCacheTtlSeconds * 1000 });
    }
    // The cached policy is evaluated for every request, as API Gateway does.
    return policyAllows(result, methodArn(event)) ? result : 'ACCESS_DENIED';
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    // The OpenAPI document and its reference page: public, like the static file published on AWS.
    const document = await publishedDocument(method, url.pathname, origin);
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
    const event = apiEvent({
      method,
      url: req.url ?? '/',
      headers: headerPairs(req),
      body: body.length > 0 ? body.toString('utf8') : null,
      stage: STAGE,
      domainName: req.headers.host ?? `${host}:${port}`,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      protocol: `HTTP/${req.httpVersion}`,
    });
    if (!event) throw new Error(`No event for the route ${match.route.name}`);
    // Like the WAF rule: per Authorization value, before the authorizer; no header goes on to the 401.
    const limit = limiter && req.headers.authorization ? limiter.take(req.headers.authorization) : undefined;
    if (limit && !limit.allowed) {
      const { statusCode } = gatewayResponses.THROTTLED;
      const headers = { 'Content-Type': 'application/json', 'Retry-After': limit.retryAfterSeconds };
      send(res, statusCode, headers, JSON.stringify(gatewayResponseBody('THROTTLED')));
      return statusCode;
    }
    const authorization = await authorize(event);
    if (typeof authorization === 'string') {
      sendGatewayResponse(res, authorization);
      return gatewayResponses[authorization].statusCode;
    }
    const handler = await warm<ApiHandler>(match.route.handler);
    const context = lambdaContext(match.route.name, event.requestContext.requestId);
    const result = await invoke(match.route.name, () => handler(authorizedEvent(event, authorization), context));
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
  // Node's parser refuses some requests before any handler runs (raw UTF-8 in the URL, a broken request
  // line); Node cannot be told to accept them. Answer in the JSON error contract, as every error is.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const { statusCode } = gatewayResponses.DEFAULT_4XX;
    const body = JSON.stringify(gatewayResponseBody('DEFAULT_4XX'));
    const head = `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\nContent-Type: application/json\r\n`;
    socket.end(`${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
