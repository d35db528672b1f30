/**
 * The errors the local CloudFront answers, as CloudFront sends them: on the control plane (REST-XML) an
 * `<ErrorResponse><Error><Type/><Code/><Message/></Error><RequestId/></ErrorResponse>` body, which the SDK reads
 * into the error class named by `Code`; on KeyValueStore (REST-JSON) the code in the `x-amzn-errortype` header and
 * `{"Message": …}` in the body. Statuses and default messages are the API Reference's, cited at each error.
 */
import { randomUUID } from 'node:crypto';
import { leaf, node, xmlDocument } from './xml.ts';

export type Answer = { status: number; headers?: Record<string, string>; body?: string };

export class CloudFrontError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** `Sender` for the caller's fault, `Receiver` for the service's (CloudFront's `<Type>`). */
    readonly type: 'Sender' | 'Receiver' = 'Sender',
  ) {
    super(message);
    this.name = code;
  }
}

const error = (code: string, status: number) => (message: string) => new CloudFrontError(code, status, message);

/*
 * Control plane. Codes and statuses: the "Errors" sections of CreateDistributionTenant, UpdateDistributionTenant,
 * DeleteDistributionTenant and GetDistributionTenant in the Amazon CloudFront API Reference
 * (https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_CreateDistributionTenant.html and siblings),
 * which are also the statuses `@aws-sdk/client-cloudfront` models for these classes.
 */
export const controlPlane = {
  /** 400 "An argument is invalid." */
  invalidArgument: error('InvalidArgument', 400),
  /** 404 "The entity was not found." */
  entityNotFound: error('EntityNotFound', 404),
  /** 409 "The entity already exists. You must provide a unique entity." */
  entityAlreadyExists: error('EntityAlreadyExists', 409),
  /** 409: a domain already served by another resource. */
  cnameAlreadyExists: error('CNAMEAlreadyExists', 409),
  /** 400 "The If-Match version is missing or not valid." */
  invalidIfMatchVersion: error('InvalidIfMatchVersion', 400),
  /** 412 "The precondition in one or more of the request fields evaluated to false." */
  preconditionFailed: error('PreconditionFailed', 412),
  /** 400 "The entity limit has been exceeded." (CreateDistributionTenant: a quota of the account is full.) */
  entityLimitExceeded: error('EntityLimitExceeded', 400),
  /** 409 "The specified CloudFront resource hasn't been disabled yet." */
  resourceNotDisabled: error('ResourceNotDisabled', 409),
  /**
   * 400 `Throttling` "Rate exceeded": what CloudFront's control plane answers when throttling, as seen in
   * https://github.com/spacecatninja/craft-imager-x/issues/19 (`400 Bad Request … <Code>Throttling</Code>`) and
   * https://github.com/aws/aws-sdk-js/issues/3983; the SDK's retry strategy treats the code as throttling.
   */
  throttling: () => new CloudFrontError('Throttling', 400, 'Rate exceeded'),
};

/*
 * KeyValueStore. Codes, statuses and messages: the "Errors" sections of the KeyValueStore operations in the
 * Amazon CloudFront API Reference (https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_kvs_PutKey.html
 * and siblings), which `@aws-sdk/client-cloudfront-keyvaluestore` models with the same statuses.
 */
export const keyValueStore = {
  /** 403 "Access denied." */
  accessDenied: error('AccessDeniedException', 403),
  /** 409 "Resource is not in expected state." */
  conflict: error('ConflictException', 409),
  /** 404 "Resource was not found." */
  resourceNotFound: error('ResourceNotFoundException', 404),
  /** 402 "Limit exceeded." */
  serviceQuotaExceeded: error('ServiceQuotaExceededException', 402),
  /** 400 "Validation failed." */
  validation: error('ValidationException', 400),
  /**
   * KeyValueStore documents no throttling error; the API Reference's Common Errors page
   * (https://docs.aws.amazon.com/cloudfront/latest/APIReference/CommonErrors.html) lists `ThrottlingException`,
   * 400 "The request was denied due to request throttling.", which the SDK's retry strategy treats as throttling.
   */
  throttling: () =>
    new CloudFrontError('ThrottlingException', 400, 'The request was denied due to request throttling.'),
};

/*
 * Authentication, either plane: the Common Errors page of the API Reference
 * (https://docs.aws.amazon.com/cloudfront/latest/APIReference/CommonErrors.html).
 */
export const authentication = {
  /** 403 "The request must contain either a valid (registered) AWS access key ID or X.509 certificate." */
  missingToken: error('MissingAuthenticationToken', 403),
  /** 400 "The request signature does not conform to AWS standards." */
  incompleteSignature: error('IncompleteSignature', 400),
  /**
   * 403 `InvalidSignatureException`: what KeyValueStore answers a request signed with SigV4 (a region-scoped
   * credential) rather than SigV4A, "The credential must be scoped to a valid region." — reported in
   * https://github.com/aws/aws-sdk-js-v3/issues/5576 and https://github.com/aws/aws-sdk-js/issues/4545.
   */
  invalidSignature: error('InvalidSignatureException', 403),
};

/** The control plane's error body. */
export function controlPlaneError(failure: CloudFrontError): Answer {
  const body = xmlDocument(
    'ErrorResponse',
    node('Error', leaf('Type', failure.type), leaf('Code', failure.code), leaf('Message', failure.message)),
    leaf('RequestId', randomUUID()),
  );
  return { status: failure.status, headers: { 'content-type': 'text/xml' }, body };
}

/** KeyValueStore's error answer. */
export function keyValueStoreError(failure: CloudFrontError): Answer {
  return {
    status: failure.status,
    headers: { 'content-type': 'application/json', 'x-amzn-errortype': failure.code },
    body: JSON.stringify({ Message: failure.message }),
  };
}
