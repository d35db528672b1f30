/**
 * Lambda and API Gateway, emulated in-process: loading a function module, its context, and the REST (v1)
 * proxy and REQUEST-authorizer events API Gateway sends. One module, used by the local gateway, the
 * benchmarks and the tests, so all of them invoke the handlers the same way.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import type { Db } from '#lib/data/dynamodb.ts';
import { header } from '#lib/http/headers.ts';
import { scopes as allScopes, type Scope } from '#lib/kinds.ts';
import { type Config, configured } from '#lib/platform/config.ts';
import { functionEntry } from '../bundling.ts';
import { functionSizing, timeoutSecondsOf } from '../function-sizing.ts';
import { matchRoute } from './routing.ts';

export { header };

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
  context: Context,
) => Promise<APIGatewayAuthorizerResult>;

/** Which function an asynchronous call belongs to, while the local gateway runs it (for recorders). */
export const invocation = new AsyncLocalStorage<{ functionName: string }>();

/** Runs one invocation of a function, so that what it does can be told apart from other functions' work. */
export const invoke = <Result>(functionName: string, run: () => Promise<Result>): Promise<Result> =>
  invocation.run({ functionName }, run);

/** Every module in `functions/` exports `create(config, db?)`; Lambda's entry is its `handler` export. */
type FunctionModule<Handler> = { create: (config: Config, db?: Db) => Handler };

/**
 * Builds a function's handler from its source, as Lambda's init would (`configured`, as `atColdStart` does), with
 * the configuration given (and optionally a shared client, so tests can observe or fault every call).
 */
export async function loadFunction<Handler>(handler: string, config: Config, db?: Db): Promise<Handler> {
  const module = (await import(
    /* @vite-ignore */ pathToFileURL(functionEntry(handler)).href
  )) as FunctionModule<Handler>;
  return configured(module.create, config, db);
}

/** The context Lambda passes: the deployed memory size, and a deadline at the deployed timeout. */
export function lambdaContext(functionName: string, requestId: string = randomUUID()): Context {
  // The route's own timeout where it has one (the webhook test waits up to 10 s for a receiver), as on AWS.
  const deadline = Date.now() + timeoutSecondsOf(functionName) * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(functionSizing.memorySize),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export type HttpRequestSpec = {
  method: string;
  /** Path (without stage) and query string: `/api/v1/spaces?page=2`. */
  url: string;
  /** Header name/value pairs in the order received; repeated names give multi-value headers. */
  headers: readonly (readonly [string, string])[];
  body?: string | null;
  /** The body is base64, as API Gateway sends bodies of binary media types (the local gateway sends text). */
  isBase64Encoded?: boolean;
  /** API Gateway's stage; on the default execute-api host the stage is part of the path clients call. */
  stage: string;
  domainName: string;
  /** True when clients call the path with the stage prefix (`/prod/api/v1/...`), as on execute-api hosts. */
  stageInPath?: boolean;
  sourceIp?: string;
  protocol?: string;
  requestId?: string;
};

const ACCOUNT = '000000000000';

/** Prototype-free maps: a header or query key named `__proto__` is data, as in the JSON event AWS sends. */
function multiMap(pairs: Iterable<readonly [string, string]>) {
  const single: Record<string, string> = Object.create(null);
  const multi: Record<string, string[]> = Object.create(null);
  for (const [key, value] of pairs) {
    single[key] = value;
    multi[key] = [...(multi[key] ?? []), value];
  }
  return { single, multi, empty: Object.keys(single).length === 0 };
}

/**
 * The REST (v1) proxy event for a request that matches a route, before the authorizer has run (its
 * `requestContext.authorizer` is null); undefined when no route matches.
 */
export function apiEvent(spec: HttpRequestSpec): APIGatewayProxyEvent | undefined {
  const url = new URL(spec.url, 'http://localhost');
  const match = matchRoute(spec.method, url.pathname);
  if (!match) return undefined;
  const headers = multiMap(spec.headers);
  const query = multiMap(url.searchParams);
  return {
    resource: match.route.path,
    path: url.pathname,
    httpMethod: spec.method,
    headers: headers.single,
    multiValueHeaders: headers.multi,
    queryStringParameters: query.empty ? null : query.single,
    multiValueQueryStringParameters: query.empty ? null : query.multi,
    pathParameters: match.pathParameters,
    stageVariables: null,
    body: spec.body ?? null,
    isBase64Encoded: spec.isBase64Encoded ?? false,
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'local',
      authorizer: null,
      domainName: spec.domainName,
      httpMethod: spec.method,
      identity: { sourceIp: spec.sourceIp ?? '127.0.0.1' } as APIGatewayProxyEvent['requestContext']['identity'],
      path: spec.stageInPath ? `/${spec.stage}${url.pathname}` : url.pathname,
      protocol: spec.protocol ?? 'HTTP/1.1',
      requestId: spec.requestId ?? randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: 'local',
      resourcePath: match.route.path,
      stage: spec.stage,
    },
  };
}

/** The ARN API Gateway gives the authorizer for a request: `.../<stage>/<METHOD>/<path>`. */
export const methodArn = (event: APIGatewayProxyEvent) =>
  `arn:aws:execute-api:local:${ACCOUNT}:local/${event.requestContext.stage}/${event.httpMethod}${event.path}`;

/** The REQUEST authorizer's event for a proxy event (identity source: the Authorization header). */
export function authorizerEvent(event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: methodArn(event),
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
  } as APIGatewayRequestAuthorizerEvent;
}

/** The proxy event after the authorizer allowed it: its principal and context, as API Gateway passes them. */
export function authorizedEvent(event: APIGatewayProxyEvent, result: APIGatewayAuthorizerResult): APIGatewayProxyEvent {
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      authorizer: { principalId: result.principalId, ...result.context },
    },
  };
}

/** Compiled resource patterns: a policy has one per route, evaluated on every request (cached or not). */
const resourcePatterns = new Map<string, RegExp>();

/** Does an IAM-style resource pattern (with `*` and `?`) cover this method ARN? */
function resourceCovers(pattern: string, arn: string): boolean {
  let compiled = resourcePatterns.get(pattern);
  if (!compiled) {
    const source = pattern
      .split('')
      .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('');
    compiled = new RegExp(`^${source}$`);
    resourcePatterns.set(pattern, compiled);
  }
  return compiled.test(arn);
}

/**
 * API Gateway's evaluation of an authorizer's policy for one method ARN: an explicit Deny wins, then any
 * Allow; nothing matching is a deny.
 */
export function policyAllows(result: APIGatewayAuthorizerResult, arn: string): boolean {
  const matching = (effect: string) =>
    result.policyDocument.Statement.some((statement) => {
      const resources = 'Resource' in statement ? [statement.Resource].flat() : [];
      return statement.Effect === effect && resources.some((resource) => resourceCovers(String(resource), arn));
    });
  return !matching('Deny') && matching('Allow');
}

/*
 * Direct invocation, for benchmarks and tests that call a handler without HTTP: the events API Gateway sends
 * on its default execute-api host, where clients call the stage in the path.
 */
export const EXECUTE_API_HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';
const DIRECT_STAGE = 'prod';

export type DirectRequest = {
  method: string;
  /** Path under the stage, with the query string if any: `/api/v1/spaces?page=2`. */
  url: string;
  /** The authorizer's verdict: who the key belongs to… */
  owner: string;
  /** … and what it may do (default: every scope). */
  scopes?: readonly Scope[];
  form?: Record<string, string>;
  /** Further headers the client (or a CDN in front) sends. */
  headers?: Record<string, string>;
};

function directSpec(method: string, url: string, headers: Record<string, string>, body: string | null) {
  return {
    method,
    url,
    headers: Object.entries({ Host: EXECUTE_API_HOST, 'X-Forwarded-Proto': 'https', ...headers }),
    body,
    stage: DIRECT_STAGE,
    domainName: EXECUTE_API_HOST,
    stageInPath: true,
    sourceIp: '203.0.113.10',
  };
}

/** The proxy event after the authorizer allowed the request for `owner`. */
export function directEvent({
  method,
  url,
  owner,
  scopes = allScopes,
  form,
  headers = {},
}: DirectRequest): APIGatewayProxyEvent {
  const body = form ? new URLSearchParams(form).toString() : null;
  const contentType: Record<string, string> =
    body === null ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' };
  const event = apiEvent(
    directSpec(method, url, { Authorization: 'Bearer dsk_direct', ...contentType, ...headers }, body),
  );
  if (!event) throw new Error(`No route for ${method} ${url}`);
  return authorizedEvent(event, {
    principalId: owner,
    context: { ownerId: owner, scopes: scopes.join(',') },
    policyDocument: { Version: '2012-10-17', Statement: [] },
  });
}

/** The REQUEST authorizer's event for a key on a route. */
export function directAuthorizerEvent(
  key: string,
  method = 'GET',
  path = '/api/v1/spaces',
  headers: Record<string, string> = {},
): APIGatewayRequestAuthorizerEvent {
  const event = apiEvent(directSpec(method, path, { Authorization: `Bearer ${key}`, ...headers }, null));
  if (!event) throw new Error(`No route for ${method} ${path}`);
  return authorizerEvent(event);
}

/** A link from a response (`links.next`), as the path under the stage to request next. */
export function followLink(link: string): string {
  const url = new URL(link);
  const prefix = `/${DIRECT_STAGE}/`;
  const path = url.pathname.startsWith(prefix) ? url.pathname.slice(DIRECT_STAGE.length + 1) : url.pathname;
  return `${path}${url.search}`;
}
