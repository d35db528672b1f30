/**
 * The REST API (v1): the shared route table's resources and methods, each a Lambda proxy integration
 * behind the REQUEST authorizer (HEAD beside every GET), and what API Gateway answers itself, on every path of
 * the table: the CORS preflight (OPTIONS; on any other path under the base path too), 405 with `Allow` for any
 * other method, the OpenAPI document, and its
 * gateway responses in the API's JSON error contract; each with `X-Request-Id` and the CORS headers.
 */
import { readFileSync } from 'node:fs';
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  ContentHandling,
  EndpointType,
  IdentitySource,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  type MethodOptions,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { errorBody, errorCatalogue } from '#lib/errors.ts';
import {
  type GatewayResponseType,
  gatewayHeaders,
  gatewayResponseBody,
  gatewayResponses,
  type HeaderSource,
} from '#lib/gateway-responses.ts';
import { BODY_MEDIA_TYPES } from '#lib/http/body.ts';
import { corsHeaders, preflightHeaders } from '#lib/http/headers.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import {
  type ApiPath,
  apiMethods,
  apiPaths,
  documentRoute,
  type Route,
  routeMethods,
  unknownPathPreflights,
} from '#lib/routes.ts';
import { type AllowedOrigins, formatAllowedOrigins, parseAllowedOrigins } from '#lib/settings/origins.ts';
import { type StageConfig, serviceName } from '../stages.ts';

export type RestApiProps = {
  config: StageConfig;
  authorizer: IFunction;
  /** Each route of the shared table with the function that serves it. */
  routes: readonly { route: Route; fn: IFunction }[];
};

/** One JSON object per request; never a header or a body. */
const accessLogFormat = AccessLogFormat.custom(
  JSON.stringify({
    requestId: AccessLogField.contextRequestId(),
    extendedRequestId: AccessLogField.contextExtendedRequestId(),
    requestTime: AccessLogField.contextRequestTime(),
    ip: AccessLogField.contextIdentitySourceIp(),
    userAgent: AccessLogField.contextIdentityUserAgent(),
    method: AccessLogField.contextHttpMethod(),
    resourcePath: AccessLogField.contextResourcePath(),
    path: AccessLogField.contextPath(),
    status: AccessLogField.contextStatus(),
    responseLength: AccessLogField.contextResponseLength(),
    responseLatency: AccessLogField.contextResponseLatency(),
    integrationLatency: AccessLogField.contextIntegrationLatency(),
    integrationStatus: AccessLogField.contextIntegrationStatus(),
    owner: AccessLogField.contextAuthorizerPrincipalId(),
    authorizerLatency: AccessLogField.contextAuthorizerLatency(),
    authorizerError: AccessLogField.contextAuthorizerError(),
    errorType: AccessLogField.contextErrorResponseType(),
    errorMessage: AccessLogField.contextErrorMessageString(),
    xrayTraceId: AccessLogField.contextXrayTraceId(),
  }),
);

/** Static header values are quoted in gateway responses. */
const quoted = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, `'${value}'`]));

/** A header mapping as API Gateway writes its source: `'value'`, `method.request.header.X`, `context.requestId`. */
const mappingSource = (source: HeaderSource) =>
  'value' in source
    ? `'${source.value}'`
    : 'requestHeader' in source
      ? `method.request.header.${source.requestHeader}`
      : 'context.requestId';

/**
 * API Gateway's mapping-template quota: a mock integration's answer, the OpenAPI document included, must fit in
 * one template. "Maximum mapping template size: 300 KB", not adjustable ("Quotas for configuring and running a REST
 * API in API Gateway", https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html),
 * read the stricter way: 1 KB = 1,000 bytes.
 */
export const MAPPING_TEMPLATE_MAX_BYTES = 300_000;

/**
 * A response mapping template that outputs `text` exactly. Templates are Velocity (VTL): `$` starts a reference
 * and `#` a directive (`##` a comment), so each is written as a variable holding the character. A backslash
 * before either would escape it in turn; the text must not hold one there.
 */
export function literalTemplate(text: string): string {
  if (/\\[$#]/.test(text)) throw new Error('A literal mapping template cannot hold a backslash before $ or #');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: VTL formal references (`${D}`), not placeholders.
  const references: Record<string, string> = { $: '${D}', '#': '${H}' };
  return `#set($D = '$')#set($H = '#')${text.replace(/[$#]/g, (char) => references[char] as string)}`;
}

/**
 * What a mock answer sends for a request's `Origin` when only listed origins may read it. A mapping template
 * sets these headers (`$context.responseOverride`) when `Origin` is one of the list, and none for any other
 * origin; with `*` they are fixed header mappings instead.
 */
function originTemplate(origins: readonly string[], headers: Record<string, string>): string {
  const allowed = origins.map((origin) => `$origin == '${origin}'`).join(' || ');
  const set = Object.entries(headers)
    .map(([name, value]) =>
      name === 'Access-Control-Allow-Origin'
        ? `#set($context.responseOverride.header.${name} = $origin)`
        : `#set($context.responseOverride.header.${name} = '${value}')`,
    )
    .join('');
  return [
    `#set($origin = $input.params().header.get('Origin'))`,
    `#if(!$origin)#set($origin = $input.params().header.get('origin'))#end`,
    `#if(${allowed})${set}#end`,
  ].join('');
}

/** The CORS headers of a mock answer: fixed with `*`, set by the template for a listed origin otherwise. */
function corsOf(allowed: AllowedOrigins, headersFor: (origin: string) => Record<string, string>) {
  if (allowed === '*') return { fixed: headersFor('*'), template: '', names: Object.keys(headersFor('*')) };
  const example = allowed[0] as string;
  const { Vary, ...perOrigin } = headersFor(example);
  return {
    fixed: Vary ? { Vary } : {},
    template: originTemplate(allowed, perOrigin),
    names: [...Object.keys(perOrigin), ...(Vary ? ['Vary'] : [])],
  };
}

export class Api extends Construct {
  readonly restApi: RestApi;
  /** The methods answered without a key: each path's OPTIONS and ANY, the document's GET and HEAD. */
  readonly publicMethods: Method[] = [];

  constructor(scope: Construct, id: string, { config, authorizer, routes }: RestApiProps) {
    super(scope, id);
    const name = `${serviceName}-${config.stage}`;
    const accessLogs = new LogGroup(this, 'access-logs', {
      logGroupName: `/aws/apigateway/${name}/access`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const requestAuthorizer = new RequestAuthorizer(this, 'authorizer', {
      authorizerName: `${name}-api-key`,
      handler: authorizer,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: config.api.authorizerCacheTtl,
    });

    this.restApi = new RestApi(this, 'api', {
      restApiName: name,
      description: `Domains and Spaces API (${config.stage})`,
      endpointTypes: [EndpointType.REGIONAL],
      // A body of the API's media types reaches the function as its bytes (base64), so the function can refuse
      // one that is not UTF-8 instead of reading API Gateway's text conversion of it (lib/http/body.ts).
      binaryMediaTypes: [...BODY_MEDIA_TYPES],
      defaultMethodOptions: { authorizer: requestAuthorizer, authorizationType: AuthorizationType.CUSTOM },
      // API Gateway needs an account-level role to write execution logs. It is shared by every API in the
      // account and region, so it is kept when a stage's stack is deleted (another stage may still use it).
      cloudWatchRole: true,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      deployOptions: {
        stageName: config.stage,
        tracingEnabled: true,
        throttlingRateLimit: config.api.throttle.rateLimit,
        throttlingBurstLimit: config.api.throttle.burstLimit,
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat,
      },
    });

    // The stack outputs the URL under its own name.
    this.restApi.node.tryRemoveChild('Endpoint');

    // API Gateway calls a GET method for GET only: a HEAD request reaches the function through a HEAD method
    // of its own (authorized on its own method ARN, which the authorizer's policy covers), and API Gateway
    // sends the function's headers without its body.
    for (const { route, fn } of routes) {
      const resource = this.restApi.root.resourceForPath(route.path);
      const integration = new LambdaIntegration(fn, { allowTestInvoke: false });
      for (const method of routeMethods(route)) resource.addMethod(method, integration);
    }

    const allowed = parseAllowedOrigins(formatAllowedOrigins(config.corsAllowedOrigins));
    const document = readFileSync(OPENAPI_FILE, 'utf8');
    for (const path of apiPaths) {
      const resource = this.restApi.root.resourceForPath(path.path);
      this.publicMethods.push(
        this.preflight(resource, path.methods, path.methods, allowed),
        this.methodNotAllowed(resource, path, allowed),
      );
      if (path.path === documentRoute.path) {
        for (const method of routeMethods(documentRoute)) {
          this.publicMethods.push(this.document(resource, method, document, allowed));
        }
      }
    }

    // Paths the API does not have answer the preflight too (`unknownPathPreflights`): a browser then sends the
    // request and reads its 404, where a refused preflight would fail the fetch.
    for (const path of unknownPathPreflights) {
      const resource = this.restApi.root.resourceForPath(path);
      this.publicMethods.push(this.preflight(resource, ['OPTIONS'], apiMethods, allowed));
    }

    const mapped = gatewayHeaders(allowed);
    for (const type of Object.keys(gatewayResponses) as GatewayResponseType[]) {
      const { statusCode, headers } = gatewayResponses[type];
      this.restApi.addGatewayResponse(type, {
        type: ResponseType.of(type),
        statusCode: String(statusCode),
        responseHeaders: {
          ...quoted({ 'Content-Type': 'application/json', ...headers }),
          ...Object.fromEntries(Object.entries(mapped).map(([name, source]) => [name, mappingSource(source)])),
        },
        templates: { 'application/json': JSON.stringify(gatewayResponseBody(type)) },
      });
    }
    this.acknowledge();
  }

  /**
   * A method API Gateway answers itself (a mock integration): `statusCode`, fixed headers, the CORS headers
   * (`corsOf`), `X-Request-Id` (its request id, as in its access log) and `body`, without a key.
   *
   * The mock's request template only gives the status; it is kept for the two media types the API takes, and
   * any other body is refused with 415 (API Gateway's UNSUPPORTED_MEDIA_TYPE response): passed through, a body
   * that is not that JSON would fail the mock (500).
   */
  private mock(
    resource: IResource,
    method: string,
    answer: {
      statusCode: number;
      headers: Record<string, string>;
      cors: ReturnType<typeof corsOf>;
      body: string;
    },
  ): Method {
    const template = `${answer.cors.template}${answer.body === '' ? '' : literalTemplate(answer.body)}`;
    if (Buffer.byteLength(template) > MAPPING_TEMPLATE_MAX_BYTES) {
      throw new Error(`The ${method} ${resource.path} answer is over API Gateway's mapping template quota`);
    }
    const statusCode = String(answer.statusCode);
    const fixed = { ...answer.headers, ...answer.cors.fixed };
    const requestTemplate = JSON.stringify({ statusCode: 200 });
    const integration = new MockIntegration({
      // A body of a binary media type (`BODY_MEDIA_TYPES`) is passed as a blob, which no mapping template reads;
      // converted to text (base64), the request template runs on it as on any other body.
      contentHandling: ContentHandling.CONVERT_TO_TEXT,
      requestTemplates: { 'application/json': requestTemplate, 'application/x-www-form-urlencoded': requestTemplate },
      passthroughBehavior: PassthroughBehavior.NEVER,
      integrationResponses: [
        {
          statusCode,
          responseParameters: {
            ...Object.fromEntries(
              Object.entries(fixed).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]),
            ),
            'method.response.header.X-Request-Id': 'context.requestId',
          },
          responseTemplates: { 'application/json': template },
        },
      ],
    });
    const declared = [...Object.keys(fixed), ...answer.cors.names, 'X-Request-Id'];
    const options: MethodOptions = {
      // The way CDK's own CORS preflight leaves the API's default authorizer off: no key is asked for.
      authorizer: { authorizerId: '', authorizationType: AuthorizationType.NONE },
      authorizationType: AuthorizationType.NONE,
      methodResponses: [
        {
          statusCode,
          responseParameters: Object.fromEntries(declared.map((name) => [`method.response.header.${name}`, false])),
        },
      ],
    };
    return resource.addMethod(method, integration, options);
  }

  /**
   * The CORS preflight on a path: 204, `Allow` (its methods), and for an allowed origin the methods a page may
   * send there (its own; on a path the API does not have, every method of the API, so the page gets the 404);
   * nothing of CORS for another origin.
   */
  private preflight(
    resource: IResource,
    allow: readonly string[],
    methods: readonly string[],
    allowed: AllowedOrigins,
  ): Method {
    return this.mock(resource, 'OPTIONS', {
      statusCode: 204,
      headers: { Allow: allow.join(', ') },
      cors: corsOf(allowed, (origin) => preflightHeaders(allowed, origin, methods)),
      body: '',
    });
  }

  /**
   * 405 with `Allow` for any method the path does not have. Without it API Gateway answers an unknown method
   * of a known resource as an unknown path (MISSING_AUTHENTICATION_TOKEN). `ANY` catches exactly the methods
   * a resource does not declare (the declared ones take precedence), and a mock integration answers from the
   * route table as synthesized: no function to run or pay for, and `Allow` cannot drift from the table.
   */
  private methodNotAllowed(resource: IResource, path: ApiPath, allowed: AllowedOrigins): Method {
    return this.mock(resource, 'ANY', {
      statusCode: errorCatalogue.methodNotAllowed.status,
      headers: { Allow: path.methods.join(', ') },
      cors: corsOf(allowed, (origin) => corsHeaders(allowed, origin)),
      body: JSON.stringify(errorBody('methodNotAllowed')),
    });
  }

  /**
   * The OpenAPI document, public and cacheable, the committed file's bytes. A mock integration serves it from
   * the API's own definition: no function, no cold start, no bucket, and every change of the file deploys
   * with the API (it is part of the deployment's hash). Its limit is the mapping template quota, which
   * `mock` checks at synthesis (the document is about two thirds of it with webhooks); past it, a small
   * function bundling the file would serve it instead. HEAD answers the same status and headers with an empty
   * template: API Gateway sends no body to a HEAD, and the document held once keeps the stack's template
   * (CloudFormation's 1 MB) clear of a second copy.
   */
  private document(resource: IResource, method: string, document: string, allowed: AllowedOrigins): Method {
    return this.mock(resource, method, {
      statusCode: 200,
      headers: { 'Cache-Control': documentRoute.cacheControl },
      cors: corsOf(allowed, (origin) => corsHeaders(allowed, origin)),
      body: method === 'HEAD' ? '' : document,
    });
  }

  private acknowledge() {
    const api = Validations.of(this.restApi);
    api.acknowledge({
      id: 'AwsSolutions-APIG2',
      reason:
        'Requests are validated by the handlers against the shared valibot schemas, which answer with the API contract (422 with field errors); an API Gateway validator would answer 400 in another shape.',
    });
    api.acknowledge({
      id: 'AwsSolutions-COG4',
      reason:
        'Clients authenticate with API keys checked by the REQUEST authorizer on every method, not Cognito users.',
    });
    api.acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason: "AWS's managed policy is the documented one for API Gateway's account-level CloudWatch Logs role.",
    });
    for (const method of this.publicMethods) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          "Answered by API Gateway itself without a key, and holding no data: a CORS preflight (browsers send it without credentials), a 405 naming the path's methods, or the public OpenAPI document.",
      });
    }
  }
}
