/**
 * The REST API (v1): the shared route table's resources and methods, each a Lambda proxy integration
 * behind the REQUEST authorizer, and API Gateway's own answers in the API's JSON error contract.
 */
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type GatewayResponseType, gatewayResponseBody, gatewayResponses } from '#lib/gateway-responses.ts';
import type { Route } from '#lib/routes.ts';
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

export class Api extends Construct {
  readonly restApi: RestApi;

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

    for (const { route, fn } of routes) {
      const resource = this.restApi.root.resourceForPath(route.path);
      const integration = new LambdaIntegration(fn, { allowTestInvoke: false });
      for (const method of route.methods) resource.addMethod(method, integration);
    }

    for (const type of Object.keys(gatewayResponses) as GatewayResponseType[]) {
      const { statusCode, headers } = gatewayResponses[type] as {
        statusCode: number;
        headers?: Record<string, string>;
      };
      this.restApi.addGatewayResponse(type, {
        type: ResponseType.of(type),
        statusCode: String(statusCode),
        responseHeaders: quoted({ 'Content-Type': 'application/json', ...headers }),
        templates: { 'application/json': JSON.stringify(gatewayResponseBody(type)) },
      });
    }
    this.acknowledge();
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
  }
}
