/**
 * The REST API (v1): the shared route table's resources and methods, each a Lambda proxy integration
 * behind the REQUEST authorizer (HEAD beside every GET), and what API Gateway answers itself, on every path of
 * the table: the CORS preflight (OPTIONS; on any other path under the base path too), 405 with `Allow` for any
 * other method, the OpenAPI document (an S3 object it reads itself: `openapi-document.ts`), and its
 * gateway responses in the API's JSON error contract; each with `X-Request-Id` and the CORS headers.
 */
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  type IResource,
  LambdaIntegration,
  LogGroupLogDestination,
  type Method,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { errorBody, errorCatalogue } from '#lib/http/errors.ts';
import {
  type GatewayResponseType,
  gatewayHeaders,
  gatewayResponseBody,
  gatewayResponses,
  type HeaderSource,
} from '#lib/http/gateway-responses.ts';
import { corsHeaders, preflightHeaders } from '#lib/http/headers.ts';
import { type AllowedOrigins, formatAllowedOrigins, parseAllowedOrigins } from '#lib/platform/origins.ts';
import {
  type ApiPath,
  apiMethods,
  apiPaths,
  documentRoute,
  type Route,
  routeMethods,
  unknownPathPreflights,
} from '#lib/routes.ts';
import { type StageConfig, serviceName } from '../stages.ts';
import { type Cors, corsOf, gatewayAnswer } from './mapping-templates.ts';
import { OpenApiDocument } from './openapi-document.ts';

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
    // The OpenAPI document, public and cacheable: the committed file as an S3 object API Gateway reads itself.
    const document = new OpenApiDocument(this, 'openapi-document');
    for (const path of apiPaths) {
      const resource = this.restApi.root.resourceForPath(path.path);
      this.publicMethods.push(
        this.preflight(resource, path.methods, path.methods, allowed),
        this.methodNotAllowed(resource, path, allowed),
      );
      if (path.path === documentRoute.path) {
        const cors = corsOf(allowed, (origin) => corsHeaders(allowed, origin));
        for (const method of routeMethods(documentRoute)) {
          this.publicMethods.push(document.serve(resource, method, cors));
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
    answer: { statusCode: number; headers: Record<string, string>; cors: Cors; body: string },
  ): Method {
    const { integrationResponse, methodResponse } = gatewayAnswer(answer, `${method} ${resource.path}`);
    const requestTemplate = JSON.stringify({ statusCode: 200 });
    const integration = new MockIntegration({
      requestTemplates: { 'application/json': requestTemplate, 'application/x-www-form-urlencoded': requestTemplate },
      passthroughBehavior: PassthroughBehavior.NEVER,
      integrationResponses: [integrationResponse],
    });
    return resource.addMethod(method, integration, {
      // The way CDK's own CORS preflight leaves the API's default authorizer off: no key is asked for.
      authorizer: { authorizerId: '', authorizationType: AuthorizationType.NONE },
      authorizationType: AuthorizationType.NONE,
      methodResponses: [methodResponse],
    });
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
          "Answered by API Gateway itself without a key, and holding no data: a CORS preflight (browsers send it without credentials), a 405 naming the path's methods, or the public OpenAPI document (read from S3 with a role that may read that one object).",
      });
    }
  }
}
