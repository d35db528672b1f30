/**
 * Cryptographic verification of a request's signature, when the local CloudFront is given the account's
 * credentials: the canonical request of Signature Version 4 ("Create a canonical request for IAM",
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html), then for SigV4 the
 * HMAC-SHA256 signing key chain, for SigV4A ("How AWS SigV4a works",
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html#how-sigv4a-works) the ECDSA P-256 key
 * derived from the secret (NIST SP 800-108 counter mode, as `@smithy/signature-v4a`'s credentialDerivation does)
 * and an ECDSA verification. The canonical path and query are escaped as the SDK's signer escapes them
 * (`uriEscapePath`: the path as sent, escaped once more). Requests more than 15 minutes away from their
 * X-Amz-Date are refused as well (Common Errors: RequestExpired, 400).
 */
import { createECDH, createHash, createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { CloudFrontError } from './errors.ts';

export type Credentials = Readonly<Record<string, string>>;

export type SignedRequest = { method: string; rawUrl: string; headers: IncomingHttpHeaders; body: string };

const escapeUri = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : (value ?? ''));

function canonicalRequest(request: SignedRequest, signedHeaders: readonly string[]): string {
  const [path = '/', query = ''] = request.rawUrl.split('?', 2);
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  const canonicalPath = escapeUri(`/${segments.join('/')}${path.endsWith('/') && segments.length ? '/' : ''}`).replace(
    /%2F/g,
    '/',
  );
  const params = [...new URLSearchParams(query)]
    .filter(([key]) => key !== 'X-Amz-Signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${escapeUri(key)}=${escapeUri(value)}`);
  const headers = signedHeaders.map((name) => `${name}:${single(request.headers[name]).trim().replace(/\s+/g, ' ')}`);
  const payloadHash = single(request.headers['x-amz-content-sha256']) || sha256Hex(request.body);
  return [request.method, canonicalPath, params.join('&'), ...headers, '', signedHeaders.join(';'), payloadHash].join(
    '\n',
  );
}

/** SigV4's signing key: HMAC-SHA256 down the scope (date, region, service, aws4_request). */
function sigV4Key(secret: string, scope: readonly string[]): Buffer {
  return scope.reduce<Buffer | string>(
    (key, part) => createHmac('sha256', key).update(part).digest(),
    `AWS4${secret}`,
  ) as Buffer;
}

/** N − 2 of P-256: a derived candidate above it is rejected and the counter moves on. */
const N_MINUS_TWO = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254f');

/** SigV4A's public key for an access key: d = HMAC-SHA256("AWS4A" + secret, fixed input) + 1, then d·G. */
function sigV4aPublicKey(accessKeyId: string, secret: string) {
  let fixedInput = '';
  for (let counter = 1; counter < 254; counter++) {
    // As `@smithy/signature-v4a` builds it: each trial appends to the previous trial's input.
    fixedInput += `\u0000\u0000\u0000\u0001AWS4-ECDSA-P256-SHA256\u0000${accessKeyId}${String.fromCharCode(counter)}\u0000\u0000\u0001\u0000`;
    const candidate = createHmac('sha256', `AWS4A${secret}`).update(Buffer.from(fixedInput, 'latin1')).digest();
    const value = BigInt(`0x${candidate.toString('hex')}`);
    if (value > N_MINUS_TWO) continue;
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from((value + 1n).toString(16).padStart(64, '0'), 'hex'));
    const point = ecdh.getPublicKey();
    const coordinate = (from: number) => point.subarray(from, from + 32).toString('base64url');
    return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: coordinate(1), y: coordinate(33) }, format: 'jwk' });
  }
  throw new Error('Cannot derive a SigV4A key');
}

const MAX_SKEW_MS = 15 * 60 * 1000;

function amzDate(text: string): number {
  const iso = text.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
  return iso === text ? Number.NaN : Date.parse(iso);
}

/**
 * Verifies the signature of a request whose header form was already checked (signature.ts). Throws 403
 * `signatureMismatch` (the plane's code) for a wrong signature or body, InvalidClientTokenId for an unknown key.
 */
export function verifySignature(
  request: SignedRequest,
  credentials: Credentials,
  signatureMismatch: (message: string) => CloudFrontError,
): void {
  const header = single(request.headers.authorization);
  const [, algorithm = '', accessKeyId = '', scope = '', signed = '', signature = ''] =
    /^(\S+) Credential=([^/]+)\/(\S+?),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(header.trim()) ?? [];
  const secret = credentials[accessKeyId];
  if (secret === undefined) {
    throw new CloudFrontError('InvalidClientTokenId', 403, 'The security token included in the request is invalid.');
  }
  const date = single(request.headers['x-amz-date']);
  if (!(Math.abs(Date.now() - amzDate(date)) <= MAX_SKEW_MS)) {
    throw new CloudFrontError(
      'RequestExpired',
      400,
      'The request reached the service more than 15 minutes after its date.',
    );
  }
  const claimedHash = single(request.headers['x-amz-content-sha256']);
  if (claimedHash && claimedHash !== 'UNSIGNED-PAYLOAD' && claimedHash !== sha256Hex(request.body)) {
    throw signatureMismatch('The provided x-amz-content-sha256 header does not match what was computed.');
  }
  const stringToSign = [algorithm, date, scope, sha256Hex(canonicalRequest(request, signed.split(';')))].join('\n');
  const given = Buffer.from(signature, 'hex');
  const valid =
    algorithm === 'AWS4-HMAC-SHA256'
      ? (() => {
          const expected = createHmac('sha256', sigV4Key(secret, scope.split('/')))
            .update(stringToSign)
            .digest();
          return expected.length === given.length && timingSafeEqual(expected, given);
        })()
      : verify(
          'sha256',
          Buffer.from(stringToSign),
          { key: sigV4aPublicKey(accessKeyId, secret), dsaEncoding: 'der' },
          given,
        );
  if (!valid) {
    throw signatureMismatch(
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    );
  }
}
