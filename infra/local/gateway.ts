/**
 * The local API Gateway: reads the shared route table, builds the REST (v1) proxy event AWS would,
 * runs the authorizer (cached per key for a while, as API Gateway does) and then the route's handler. What API
 * Gateway answers itself on AWS (`infra/constructs/rest-api.ts`) it answers alike: unknown paths (404), the
 * CORS preflight (`OPTIONS`, 204), a method the path does not have (405 with `Allow`), HEAD as GET without
 * the body, the OpenAPI document, and its gateway responses; each with `X-Request-Id` and the CORS headers.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent } from 'aws-lambda';
import { createDb, type Db } from '#lib/data/dynamodb.ts';
import { errorBody, errorCatalogue } from '#lib/http/errors.ts';
import {
  type GatewayResponseType,
  gatewayHeaders,
  gatewayResponseBody,
  gatewayResponses,
  resolveHeaders,
} from '#lib/http/gateway-responses.ts';
import { corsHeaders, preflightHeaders } from '#lib/http/headers.ts';
import { DOCS_PATH, publishedDocument } from '#lib/openapi/public.ts';
import type { Config } from '#lib/platform/config.ts';
import { apiMethods, authorizerHandler, documentRoute, underApi } from '#lib/routes.ts';
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
import { createRateLimiter, rateLimitKey } from './rate-limit.ts';
import { matchPath, matchRoute } from './routing.ts';

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
  /** Requests per minute per key (`rateLimitKey`) before 429, as AWS WAF enforces (none when unset or 0). */
  rateLimitPerMinute?: number;
};

export type Gateway = { url: string; server: Server; close: () => Promise<void> };

/** API Gateway's payload limit; the handlers enforce the API's own, smaller limit. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
const STAGE = 'local';

/**
 * Writes an answer. Its `Content-Length` is the body's, for HEAD too: Node sends no body to a HEAD request, as
 * API Gateway does, and the length is the one GET would have sent (RFC 9110 §9.3.2).
 */
function send(
  res: ServerResponse,
  statusCode: number,
  headers: Record<string, string | number | boolean>,
  body: string,
) {
  res.writeHead(statusCode, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
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

  const allowed = config.corsAllowedOrigins;

  /** A gateway response, with the headers its mapping adds on AWS (`gatewayHeaders`): request id, CORS. */
  function sendGatewayResponse(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    type: GatewayResponseType,
    overrides: Record<string, string | number> = {},
  ): number {
    const { statusCode, headers } = gatewayResponses[type];
    const mapped = resolveHeaders(gatewayHeaders(allowed), {
      requestId,
      header: (name) => header(req.headers as Record<string, string | undefined>, name),
    });
    const all = { 'Content-Type': 'application/json', ...headers, ...mapped, ...overrides };
    send(res, statusCode, all, JSON.stringify(gatewayResponseBody(type)));
    return statusCode;
  }

  async function handle(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<number> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const method = req.method ?? 'GET';
    const requestOrigin = req.headers.origin;
    /** An answer of the gateway's own; every one carries the request id. */
    const answer = (statusCode: number, headers: Record<string, string | number>, body = '') => {
      send(res, statusCode, { ...headers, 'X-Request-Id': requestId }, body);
      return statusCode;
    };
    const gatewayResponse = (type: GatewayResponseType, overrides?: Record<string, string | number>) =>
      sendGatewayResponse(req, res, requestId, type, overrides);
    // Published files are read as for GET on HEAD too: Node sends no body, only its length.
    const read = method === 'HEAD' ? 'GET' : method;

    // The reference page: not part of the API, public, like the static page published with it.
    if (url.pathname === DOCS_PATH) {
      const page = await publishedDocument(read, url.pathname, origin);
      if (page) return answer(page.statusCode, page.headers, page.body);
    }
    const path = matchPath(url.pathname);
    if (!path) {
      // The preflight of a path the API does not have, under its base path: the request then gets its 404.
      if (method === 'OPTIONS' && underApi(url.pathname))
        return answer(204, { Allow: 'OPTIONS', ...preflightHeaders(allowed, requestOrigin, apiMethods) });
      return gatewayResponse('MISSING_AUTHENTICATION_TOKEN');
    }
    const allow = path.methods.join(', ');
    // The CORS preflight: on every path, without a key.
    if (method === 'OPTIONS')
      return answer(204, { Allow: allow, ...preflightHeaders(allowed, requestOrigin, path.methods) });
    // A path the API has, with a method it does not have: before any key is asked for, as API Gateway does.
    if (!path.methods.includes(method as (typeof path.methods)[number])) {
      const headers = { 'Content-Type': 'application/json', Allow: allow, ...corsHeaders(allowed, requestOrigin) };
      return answer(errorCatalogue.methodNotAllowed.status, headers, JSON.stringify(errorBody('methodNotAllowed')));
    }
    // The OpenAPI document: public and cacheable.
    if (url.pathname === documentRoute.path) {
      const document = await publishedDocument(read, url.pathname, origin);
      if (!document) throw new Error(`${documentRoute.path} is not published`);
      const cache: Record<string, string> =
        document.statusCode === 200 ? { 'Cache-Control': documentRoute.cacheControl } : {};
      const headers = { ...document.headers, ...cache, ...corsHeaders(allowed, requestOrigin) };
      return answer(document.statusCode, headers, document.body);
    }
    const match = matchRoute(method, url.pathname);
    if (!match) throw new Error(`No route for ${method} ${url.pathname}, a method of its path`);
    const body = await readBody(req);
    if (body === null) return gatewayResponse('REQUEST_TOO_LARGE');
    const event = apiEvent({
      method,
      url: req.url ?? '/',
      headers: headerPairs(req),
      // As text, decoded as API Gateway decodes it: a byte that is not UTF-8 becomes U+FFFD (lib/http/body.ts).
      body: body.length > 0 ? body.toString('utf8') : null,
      stage: STAGE,
      domainName: req.headers.host ?? `${host}:${port}`,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
      protocol: `HTTP/${req.httpVersion}`,
      requestId,
    });
    if (!event) throw new Error(`No event for the route ${match.route.name}`);
    // Like the WAF rule: per key, before the authorizer; no header goes on to the 401.
    const limit =
      limiter && req.headers.authorization ? limiter.take(rateLimitKey(req.headers.authorization)) : undefined;
    if (limit && !limit.allowed) return gatewayResponse('THROTTLED', { 'Retry-After': limit.retryAfterSeconds });
    const authorization = await authorize(event);
    if (typeof authorization === 'string') return gatewayResponse(authorization);
    const handler = await warm<ApiHandler>(match.route.handler);
    const context = lambdaContext(match.route.name, requestId);
    const result = await invoke(match.route.name, () => handler(authorizedEvent(event, authorization), context));
    // A proxy integration's answer goes out as the function wrote it (its X-Request-Id and CORS headers too).
    send(res, result.statusCode, { ...(result.headers ?? {}) }, result.body);
    return result.statusCode;
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    const requestId = randomUUID();
    const path = req.url?.split('?')[0];
    handle(req, res, requestId)
      .catch((error) => {
        // A handler that throws past its middleware is a Lambda failure: API Gateway answers 502.
        console.error(`${req.method} ${path} failed (request ${requestId}):`, error);
        return res.headersSent ? 502 : sendGatewayResponse(req, res, requestId, 'INTEGRATION_FAILURE');
      })
      .then((status) => {
        if (logRequests) {
          const ms = (performance.now() - started).toFixed(1);
          console.log(`${req.method} ${path} ${status} ${ms}ms request ${requestId}`);
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
    // The request's headers are not known: its Origin is not echoed.
    const mapped = resolveHeaders(gatewayHeaders(allowed), { requestId: randomUUID(), header: () => undefined });
    const lines = Object.entries({ 'Content-Type': 'application/json', ...mapped }).map(([k, v]) => `${k}: ${v}\r\n`);
    const head = `HTTP/1.1 ${statusCode} ${STATUS_CODES[statusCode]}\r\n${lines.join('')}`;
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
