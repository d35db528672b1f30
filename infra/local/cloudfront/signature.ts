/**
 * The authentication each plane requires, checked on the `Authorization` header's form (the signature itself is
 * verified only when the local CloudFront is given credentials: signature-verify.ts):
 * - the control plane takes Signature Version 4 (`AWS4-HMAC-SHA256`), scoped to `us-east-1` and `cloudfront`
 *   (CloudFront is a global service signed in us-east-1: "Amazon CloudFront endpoints and quotas",
 *   https://docs.aws.amazon.com/general/latest/gr/cf_region.html);
 * - KeyValueStore takes only SigV4A (`AWS4-ECDSA-P256-SHA256`, a region set `*`, service
 *   `cloudfront-keyvaluestore`): its endpoint rules name the single auth scheme `sigv4a` with signingRegionSet
 *   `["*"]` (the client's endpoint rule set), and the SDK needs `@aws-sdk/signature-v4a` for it ("CloudFront
 *   KeyValueStore" in the sigv4a dependency list, https://github.com/aws/aws-sdk-js-v3/pull/6219). A request
 *   signed with SigV4 instead is refused with 403 InvalidSignatureException "The credential must be scoped to a
 *   valid region." (https://github.com/aws/aws-sdk-js/issues/4545, https://github.com/aws/aws-sdk-js-v3/issues/5576).
 * Errors for a missing or malformed signature: the API Reference's Common Errors (errors.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { authentication } from './errors.ts';

type Authorization = { algorithm: string; scope: string[]; signedHeaders: string[]; signature: string };

function parseAuthorization(header: string): Authorization | undefined {
  const match = /^(\S+) Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(header.trim());
  if (!match) return undefined;
  const [, algorithm = '', credential = '', signedHeaders = '', signature = ''] = match;
  const [, ...scope] = credential.split('/');
  return { algorithm, scope, signedHeaders: signedHeaders.split(';'), signature };
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** The parts every SigV4 flavour shares: a parsable header, a dated scope, `host` and `x-amz-date` signed. */
function common(headers: IncomingHttpHeaders): Authorization {
  const header = single(headers.authorization);
  if (!header) throw authentication.missingToken('Missing Authentication Token');
  const authorization = parseAuthorization(header);
  const date = single(headers['x-amz-date']);
  if (!authorization || !date) {
    throw authentication.incompleteSignature('The request signature does not conform to AWS standards.');
  }
  const signed = authorization.signedHeaders;
  if (!signed.includes('host') || !signed.includes('x-amz-date') || authorization.scope[0] !== date.slice(0, 8)) {
    throw authentication.incompleteSignature('The request signature does not conform to AWS standards.');
  }
  return authorization;
}

export function checkControlPlaneSignature(headers: IncomingHttpHeaders): void {
  const { algorithm, scope } = common(headers);
  if (algorithm !== 'AWS4-HMAC-SHA256') {
    throw authentication.incompleteSignature('The request signature does not conform to AWS standards.');
  }
  const [, region, service, terminator] = scope;
  if (region !== 'us-east-1' || service !== 'cloudfront' || terminator !== 'aws4_request') {
    throw authentication.invalidSignature('Credential should be scoped to a valid region.');
  }
}

export function checkKeyValueStoreSignature(headers: IncomingHttpHeaders): void {
  const { algorithm, scope, signedHeaders } = common(headers);
  if (algorithm === 'AWS4-HMAC-SHA256') {
    throw authentication.invalidSignature('The credential must be scoped to a valid region.');
  }
  // SigV4A's scope has no region (date/service/aws4_request); the region set travels in X-Amz-Region-Set.
  const [, service, terminator] = scope;
  const regionSet = single(headers['x-amz-region-set']);
  if (
    algorithm !== 'AWS4-ECDSA-P256-SHA256' ||
    service !== 'cloudfront-keyvaluestore' ||
    terminator !== 'aws4_request' ||
    regionSet !== '*' ||
    !signedHeaders.includes('x-amz-region-set')
  ) {
    throw authentication.invalidSignature('The credential must be scoped to a valid region.');
  }
}
