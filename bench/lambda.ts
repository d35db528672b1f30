/**
 * The benchmarks' view of a Lambda invocation: the events of `infra/local/lambda.ts`, with the headers a typical
 * client sends behind CloudFront (so header handling costs what it costs on AWS).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { type DirectRequest, directAuthorizerEvent, directEvent } from '#infra/local/lambda.ts';

export { DynamoRecorder } from '#infra/local/dynamodb-recorder.ts';
export {
  type ApiHandler,
  type AuthorizerHandler,
  followLink,
  lambdaContext,
  loadFunction,
} from '#infra/local/lambda.ts';
export { authorizerHandler as authorizerName } from '#lib/routes.ts';

function cloudFrontHeaders(): Record<string, string> {
  return {
    Accept: 'application/json',
    'Accept-Encoding': 'gzip, deflate, br',
    'CloudFront-Forwarded-Proto': 'https',
    'CloudFront-Is-Desktop-Viewer': 'true',
    'CloudFront-Viewer-Country': 'NL',
    'User-Agent': 'curl/8.5.0',
    Via: '2.0 4f2b1c.cloudfront.net (CloudFront)',
    'X-Amz-Cf-Id': 'bench-cf-id',
    'X-Amzn-Trace-Id': `Root=1-${randomUUID().slice(0, 8)}-${randomUUID().replaceAll('-', '').slice(0, 24)}`,
    'X-Forwarded-For': '203.0.113.10, 130.176.0.1',
    'X-Forwarded-Port': '443',
  };
}

export const apiEvent = (request: DirectRequest): APIGatewayProxyEvent =>
  directEvent({ ...request, headers: { ...cloudFrontHeaders(), ...request.headers } });

export const authorizerEvent = (
  key: string,
  method = 'GET',
  path = '/api/v1/spaces',
): APIGatewayRequestAuthorizerEvent => directAuthorizerEvent(key, method, path, cloudFrontHeaders());
