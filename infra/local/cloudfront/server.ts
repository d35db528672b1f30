/**
 * The local CloudFront's HTTP side: routes a request to its operation by method and path, as the SDK's operation
 * schemas bind them (`/2020-05-31/…` for the control plane, `/key-value-stores/{KvsARN}…` for KeyValueStore),
 * checks its signature, applies the throttling a test asked for, runs it and records the call.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { acmOperationOf, type acmOperations } from './acm.ts';
import type { ControlPlaneRequest, controlPlaneOperations } from './control-plane.ts';
import {
  type Answer,
  CloudFrontError,
  controlPlane,
  controlPlaneError,
  keyValueStore,
  keyValueStoreError,
} from './errors.ts';
import type { KeyValueStoreRequest, keyValueStoreOperations } from './key-value-store-api.ts';
import { checkControlPlaneSignature, checkKeyValueStoreSignature } from './signature.ts';
import { type Credentials, type SignedRequest, verifySignature } from './signature-verify.ts';
import type { stackResourceOperations } from './stack-resources.ts';
import { childOf, itemsOf, parseXml, textOf } from './xml.ts';

/** One call as a test sees it: which operation, on what, and how it ended. */
export type CloudFrontCall = {
  operation: string;
  input: Record<string, unknown>;
  status: number;
  errorCode?: string;
};

/** The control plane's operations: the tenants' and certificates' (control-plane.ts), the stack's deletes. */
type ControlOperations = ReturnType<typeof controlPlaneOperations> &
  ReturnType<typeof stackResourceOperations>['operations'];

type Route =
  | { plane: 'control'; operation: keyof ControlOperations; request: ControlPlaneRequest }
  | { plane: 'kvs'; operation: keyof ReturnType<typeof keyValueStoreOperations>; request: KeyValueStoreRequest };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const CONTROL_PREFIX = '/2020-05-31/';

function controlRoute(method: string, path: string, query: URLSearchParams): Route['operation'] | undefined {
  const [resource, identifier, extra] = path.slice(CONTROL_PREFIX.length).split('/');
  if (extra !== undefined) return undefined;
  const withId = identifier !== undefined && identifier !== '';
  const routes: Record<string, Route['operation'] | undefined> = {
    'POST distribution-tenant': 'CreateDistributionTenant',
    'GET distribution-tenant': query.has('domain') ? 'GetDistributionTenantByDomain' : undefined,
    'GET distribution-tenant/id': 'GetDistributionTenant',
    'PUT distribution-tenant/id': 'UpdateDistributionTenant',
    'DELETE distribution-tenant/id': 'DeleteDistributionTenant',
    'POST distribution-tenants': 'ListDistributionTenants',
    'GET managed-certificate/id': 'GetManagedCertificateDetails',
    'GET connection-group/id': 'GetConnectionGroup',
    'GET distribution/id': 'GetDistribution',
    'DELETE distribution/id': 'DeleteDistribution',
    'DELETE connection-group/id': 'DeleteConnectionGroup',
  };
  return routes[`${method} ${resource}${withId ? '/id' : ''}`];
}

function kvsRoute(method: string, segments: string[]): Route['operation'] | undefined {
  const [, keys, key, extra] = segments;
  if (extra !== undefined) return undefined;
  if (keys === undefined) return method === 'GET' ? 'DescribeKeyValueStore' : undefined;
  if (keys !== 'keys') return undefined;
  if (key === undefined) return ({ GET: 'ListKeys', POST: 'UpdateKeys' } as const)[method as 'GET' | 'POST'];
  return ({ GET: 'GetKey', PUT: 'PutKey', DELETE: 'DeleteKey' } as const)[method as 'GET' | 'PUT' | 'DELETE'];
}

function route(method: string, url: URL, headers: IncomingHttpHeaders, body: string): Route | undefined {
  const ifMatch = single(headers['if-match']);
  const raw = url.pathname.split('/');
  const decoded = (index: number) => {
    const segment = raw[index];
    try {
      return segment === undefined ? undefined : decodeURIComponent(segment);
    } catch {
      return segment; // Malformed escapes: matched as sent, so they find nothing.
    }
  };
  if (url.pathname.startsWith(CONTROL_PREFIX)) {
    const operation = controlRoute(method, url.pathname, url.searchParams);
    if (!operation) return undefined;
    const identifier = decoded(3);
    const request = {
      query: url.searchParams,
      body,
      ...(ifMatch ? { ifMatch } : {}),
      ...(identifier ? { identifier } : {}),
    };
    return { plane: 'control', operation, request } as Route;
  }
  if (raw[1] === 'key-value-stores' && raw[2]) {
    const operation = kvsRoute(method, raw.slice(2));
    if (!operation) return undefined;
    const key = decoded(4);
    const kvsArn = decoded(2) ?? '';
    const request = {
      kvsArn,
      query: url.searchParams,
      body,
      ...(ifMatch ? { ifMatch } : {}),
      ...(key !== undefined ? { key } : {}),
    };
    return { plane: 'kvs', operation, request } as Route;
  }
  return undefined;
}

/** What a call was about, for `calls`: identifiers and the fields that say what it changes. */
function summarize(found: Route): Record<string, unknown> {
  if (found.plane === 'kvs') {
    const { kvsArn, key, query, body } = found.request;
    const input: Record<string, unknown> = { KvsARN: kvsArn };
    if (key !== undefined) input.Key = key;
    if (query.has('MaxResults')) input.MaxResults = Number(query.get('MaxResults'));
    if (found.operation === 'UpdateKeys') {
      const parsed = (() => {
        try {
          return JSON.parse(body) as { Puts?: { Key: string }[]; Deletes?: { Key: string }[] };
        } catch {
          return {};
        }
      })();
      input.Puts = parsed.Puts?.map((put) => put.Key) ?? [];
      input.Deletes = parsed.Deletes?.map((each) => each.Key) ?? [];
    }
    return input;
  }
  const { identifier, query, body } = found.request;
  const input: Record<string, unknown> = {};
  if (identifier !== undefined) input.Identifier = identifier;
  if (query.has('domain')) input.Domain = query.get('domain');
  try {
    const root = body ? parseXml(body) : undefined;
    for (const name of ['DistributionId', 'Name', 'ConnectionGroupId', 'Enabled']) {
      const text = textOf(root, name);
      if (text !== undefined) input[name] = name === 'Enabled' ? text === 'true' : text;
    }
    if (childOf(root, 'Domains')) input.Domains = itemsOf(root, 'Domains').map((item) => textOf(item, 'Domain'));
  } catch {}
  return input;
}

export type ServerParts = {
  control: ControlOperations;
  /** ACM's operations, on the same server (acm.ts): requests with `X-Amz-Target: CertificateManager.…`. */
  acm?: ReturnType<typeof acmOperations>;
  kvs: ReturnType<typeof keyValueStoreOperations>;
  throttles: Map<string, number>;
  calls: CloudFrontCall[];
  /** Calls answered, by `operation` or `operation:errorCode` (a KeyValueStore write also by `UpdateKeys@<store ARN>`). */
  counts: Map<string, number>;
  /** Whether each call is kept in `calls` (its input summarized): false for a run of hundreds of thousands. */
  recordCalls?: boolean;
  /** Access key ID → secret: when given, signatures are verified cryptographically (signature-verify.ts). */
  credentials?: Credentials;
  log?: (entry: Record<string, unknown>) => void;
  /** How long each call takes before it is answered, in ms (AWS's take tens of milliseconds): a fixed range. */
  latencyMs?: { min: number; max: number };
  /** The control plane's sustained rate, in calls per second (a token bucket as deep as one second's): beyond it, Throttling. */
  controlPlaneRate?: number;
};

/** A token bucket: `rate` tokens a second, at most `rate` held. */
function tokenBucket(rate: number) {
  let tokens = rate;
  let at = Date.now();
  return () => {
    const now = Date.now();
    tokens = Math.min(rate, tokens + ((now - at) / 1000) * rate);
    at = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A signature that does not verify: SignatureDoesNotMatch on the control plane (REST-XML), InvalidSignatureException on KeyValueStore (REST-JSON); both 403. */
const mismatch = {
  control: (message: string) => new CloudFrontError('SignatureDoesNotMatch', 403, message),
  kvs: (message: string) => new CloudFrontError('InvalidSignatureException', 403, message),
};

async function answer(
  parts: ServerParts,
  found: Route,
  signed: SignedRequest,
  admit: (() => boolean) | undefined,
): Promise<Answer> {
  const asError = found.plane === 'control' ? controlPlaneError : keyValueStoreError;
  const { latencyMs } = parts;
  if (latencyMs) await sleep(latencyMs.min + Math.random() * (latencyMs.max - latencyMs.min));
  try {
    if (found.plane === 'control') checkControlPlaneSignature(signed.headers);
    else checkKeyValueStoreSignature(signed.headers);
    if (parts.credentials) verifySignature(signed, parts.credentials, mismatch[found.plane]);
    const throttled = parts.throttles.get(found.operation) ?? 0;
    if (throttled > 0) {
      parts.throttles.set(found.operation, throttled - 1);
      throw found.plane === 'control' ? controlPlane.throttling() : keyValueStore.throttling();
    }
    if (found.plane === 'control' && admit && !admit()) throw controlPlane.throttling();
    if (found.plane === 'control') return await parts.control[found.operation](found.request);
    return await parts.kvs[found.operation](found.request);
  } catch (error) {
    if (error instanceof CloudFrontError) return asError(error);
    parts.log?.({
      level: 'error',
      message: 'Local CloudFront failed',
      operation: found.operation,
      error: String(error),
    });
    return asError(new CloudFrontError('InternalFailure', 500, 'Internal failure', 'Receiver'));
  }
}

/** An ACM request: its signature verified as the other planes' are (given credentials), then its operation. */
async function answerAcm(parts: ServerParts, operation: string, signed: SignedRequest): Promise<Answer> {
  try {
    if (parts.credentials) {
      verifySignature(
        signed,
        parts.credentials,
        (message) => new CloudFrontError('InvalidSignatureException', 400, message),
      );
    }
  } catch (error) {
    if (error instanceof CloudFrontError) return keyValueStoreError(error);
    throw error;
  }
  return (parts.acm as NonNullable<ServerParts['acm']>)(operation, signed.headers, signed.body);
}

/** What an ACM call was about, for `calls`: the certificate it names. */
function acmInput(body: string): Record<string, unknown> {
  try {
    const { CertificateArn } = JSON.parse(body) as { CertificateArn?: string };
    return CertificateArn ? { CertificateArn } : {};
  } catch {
    return {};
  }
}

/**
 * An unknown operation: the Common Errors page's InvalidAction (400, "The action or operation requested is
 * invalid. Verify that the action is typed correctly.").
 */
const unknownOperation = controlPlaneError(
  new CloudFrontError('InvalidAction', 400, 'The action or operation requested is invalid.'),
);

const count = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

export function createCloudFrontServer(parts: ServerParts): Server {
  const admit = parts.controlPlaneRate === undefined ? undefined : tokenBucket(parts.controlPlaneRate);
  return createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(incoming.url ?? '/', 'http://local-cloudfront');
      const method = incoming.method ?? 'GET';
      const found = route(method, url, incoming.headers, body);
      const signed = { method, rawUrl: incoming.url ?? '/', headers: incoming.headers, body };
      const acm = parts.acm && method === 'POST' ? acmOperationOf(incoming.headers) : undefined;
      const answered =
        acm && parts.acm
          ? answerAcm(parts, acm, signed)
          : found
            ? answer(parts, found, signed, admit)
            : Promise.resolve(unknownOperation);
      answered.then(({ status, headers = {}, body: out }) => {
        const operation = acm ?? found?.operation ?? `${method} ${url.pathname}`;
        const errorCode =
          headers['x-amzn-errortype'] ?? (status >= 400 ? /<Code>([^<]*)<\/Code>/.exec(out ?? '')?.[1] : undefined);
        count(parts.counts, errorCode ? `${operation}:${errorCode}` : operation);
        if (found?.plane === 'kvs' && operation === 'UpdateKeys' && !errorCode) {
          count(parts.counts, `UpdateKeys@${found.request.kvsArn}`);
        }
        if (parts.recordCalls !== false) {
          const input = acm ? acmInput(body) : found ? summarize(found) : {};
          const call: CloudFrontCall = { operation, input, status };
          if (errorCode) call.errorCode = errorCode;
          parts.calls.push(call);
          parts.log?.({ message: 'cloudfront', ...call });
        }
        outgoing.writeHead(status, { 'x-amzn-requestid': randomUUID(), ...headers });
        outgoing.end(out);
      });
    });
  });
}
