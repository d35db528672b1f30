/**
 * The OpenAPI document on AWS: the committed `docs/openapi.json`, an S3 object that API Gateway reads itself
 * (an AWS service integration: GetObject for GET, HeadObject for HEAD) through a role that may read that one
 * object and nothing else.
 *
 * The object is the file as a CDK asset: `cdk deploy` uploads it, under a key that is the hash of its bytes,
 * into the environment's bootstrap bucket before CloudFormation runs, and each release's integration names its
 * own key. So the document changes with the API's deployment, never before it, and a rollback serves the old
 * one again. CDK documents reading an asset at run time ("IAM roles ... which need to be able to read assets in
 * runtime", aws-s3-assets); the asset is not marked `deployTime`, and `cdk gc` keeps what a deployed template
 * names.
 *
 * Why not a mock integration, as before: its template holds the document, and "Maximum mapping template size"
 * is 300 KB, not adjustable; the document was 291,955 bytes of it and grows with every route. An S3 object's
 * only bound on this path is API Gateway's "Payload size: 10 MB" (REST API quotas page).
 */
import { statSync } from 'node:fs';
import {
  AuthorizationType,
  AwsIntegration,
  type IResource,
  type Method,
  PassthroughBehavior,
} from 'aws-cdk-lib/aws-apigateway';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { type ErrorKind, errorBody, errorCatalogue } from '#lib/http/errors.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { documentRoute } from '#lib/routes.ts';
import { type Cors, gatewayAnswer, INTEGRATION_BODY, PAYLOAD_MAX_BYTES } from './mapping-templates.ts';

/** The integration's request: GetObject and HeadObject take no body (a VTL comment renders nothing). */
const NO_BODY = '## GetObject and HeadObject take no body';

const JSON_TYPE = 'application/json';

/**
 * S3's statuses (as API Gateway matches an AWS integration's `selectionPattern`: against the HTTP status) that
 * the document answers with an error of the API's own: a refusal (the object or the role is not what this stack
 * deployed) is the API's fault, a failure (503 SlowDown, 500) is passing.
 */
export const s3Failures = { '4\\d{2}': 'serverError', '5\\d{2}': 'serviceUnavailable' } as const satisfies Record<
  string,
  ErrorKind
>;

/** An error of the catalogue as the document's integration answers it: status, headers, the JSON body. */
export function failureAnswer(kind: ErrorKind) {
  const entry: { status: number; retryAfter?: number } = errorCatalogue[kind];
  return {
    statusCode: entry.status,
    headers: {
      'Content-Type': JSON_TYPE,
      ...(entry.retryAfter === undefined ? {} : { 'Retry-After': String(entry.retryAfter) }),
    },
    body: JSON.stringify(errorBody(kind)),
  };
}

export class OpenApiDocument extends Construct {
  /** The committed file, as deployed. */
  readonly asset: Asset;
  /** What API Gateway reads it with: `s3:GetObject` (which HeadObject needs too) on this one object. */
  readonly reader: Role;

  constructor(scope: Construct, id: string, file = OPENAPI_FILE) {
    super(scope, id);
    const bytes = statSync(file).size;
    if (bytes > PAYLOAD_MAX_BYTES / 2) {
      throw new Error(`${file} is ${bytes} bytes, over half of API Gateway's 10 MB payload quota`);
    }
    this.asset = new Asset(this, 'file', { path: file });
    this.reader = new Role(this, 'reader', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description: `API Gateway reads the OpenAPI document (one S3 object) for GET and HEAD ${documentRoute.path}`,
      inlinePolicies: {
        'read-openapi-document': new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['s3:GetObject'],
              resources: [this.asset.bucket.arnForObjects(this.asset.s3ObjectKey)],
            }),
          ],
        }),
      },
    });
  }

  /**
   * `method` (GET, or HEAD: the same integration's HeadObject) on the document's resource, without a key: the
   * object with its headers (`Cache-Control`, the CORS headers, `X-Request-Id`), or, should S3 not give it, the
   * API's 500 or 503 (`s3Failures`): never S3's XML error under a 200.
   *
   * The request templates are kept for the two media types the API takes, and any other body is refused with
   * 415 (as the mock answers do).
   */
  serve(resource: IResource, method: string, cors: Cors): Method {
    const what = `${method} ${documentRoute.path}`;
    const answers = [
      gatewayAnswer(
        {
          statusCode: 200,
          headers: { 'Content-Type': JSON_TYPE, 'Cache-Control': documentRoute.cacheControl },
          cors,
          body: INTEGRATION_BODY,
        },
        what,
      ),
      ...Object.entries(s3Failures).map(([selectionPattern, kind]) =>
        gatewayAnswer({ ...failureAnswer(kind), selectionPattern, cors }, `${what} (S3 ${selectionPattern})`),
      ),
    ];
    const integration = new AwsIntegration({
      service: 's3',
      integrationHttpMethod: method,
      path: `${this.asset.s3BucketName}/${this.asset.s3ObjectKey}`,
      options: {
        credentialsRole: this.reader,
        requestTemplates: { [JSON_TYPE]: NO_BODY, 'application/x-www-form-urlencoded': NO_BODY },
        passthroughBehavior: PassthroughBehavior.NEVER,
        integrationResponses: answers.map((answer) => answer.integrationResponse),
      },
    });
    return resource.addMethod(method, integration, {
      // The way CDK's own CORS preflight leaves the API's default authorizer off: no key is asked for.
      authorizer: { authorizerId: '', authorizationType: AuthorizationType.NONE },
      authorizationType: AuthorizationType.NONE,
      methodResponses: answers.map((answer) => answer.methodResponse),
    });
  }
}
