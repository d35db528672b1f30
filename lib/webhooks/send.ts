/**
 * One delivery attempt: a signed event POSTed to an endpoint, its answer read only as far as needed. The only
 * webhook module that does I/O; whether and when to try again is `schedule.ts`'s, what to send `signature.ts`'s.
 *
 * The URL was checked when it was stored, but its host's addresses may have changed since (DNS rebinding, or
 * simply a new record): so each attempt resolves the host itself, refuses if any address is not public, and
 * connects only to the addresses it checked. The name still goes in `Host` and in TLS's server name, so the
 * receiver's routing and its certificate are checked against the name, not the address.
 */
import { lookup } from 'node:dns/promises';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIPv6, type LookupFunction } from 'node:net';
import { DnsUnavailableError } from '#lib/dns/errors.ts';
import { configuredResolver } from '#lib/dns/resolver.ts';
import {
  type CheckedUrl,
  checkWebhookUrl,
  type DestinationRefusal,
  type Resolve,
  refusalOfAddresses,
} from './rules/address.ts';
import type { TransportFailure } from './rules/failures.ts';

/**
 * Why an attempt failed when no status tells: the destination's refusal (`private_address`, `loopback`,
 * `metadata`, `scheme`…), or what went wrong on the way (`failures.ts`). An answer outside 2xx has its status
 * code instead.
 */
export type DeliveryError = DestinationRefusal | TransportFailure;

export type DeliveryResult = {
  /** A 2xx answer: delivered. Anything else is retried. */
  ok: boolean;
  /** The answer's status, when one came (a 3xx is a failure: redirects are never followed). */
  statusCode?: number;
  error?: DeliveryError;
  /** From the start of the attempt (DNS included) to its end. */
  durationMs: number;
  /** At most 256 characters of the answer's body, control characters replaced by spaces; '' when none. */
  responseExcerpt: string;
  /** The address the connection went to, when one was made. */
  address?: string;
};

export type DeliveryRequest = {
  url: string;
  body: string;
  /** The delivery's headers (`webhookHeaders`); `host` and `content-length` are set here. */
  headers: Readonly<Record<string, string>>;
  /** The whole attempt's deadline: DNS, connecting, sending, and the answer with its body. */
  timeoutMs?: number;
  /** How the host's addresses are learned; the system resolver (`getaddrinfo`, as Lambda has it) by default. */
  resolve?: Resolve;
  /** The local stack: loopback destinations (and `http://` to them) are allowed. Never on AWS. */
  allowLoopback?: boolean;
  /** The local stack's own ports: refused, whatever the host (`UrlCheckOptions.reservedPorts`). */
  reservedPorts?: ReadonlySet<number>;
  /** How much of the answer's body is read; the rest is not waited for. */
  maxResponseBytes?: number;
};

/** Standard Webhooks' receivers are expected to answer within this. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 4 * 1_024;
export const RESPONSE_EXCERPT_MAX_CHARS = 256;

/** `getaddrinfo`'s answers for a name without addresses: it does not exist, or has no A or AAAA record. */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * The system resolver, every address of the host, in the order it prefers them; none for a name without
 * addresses. A lookup that got no answer (`EAI_AGAIN`: a timeout, SERVFAIL) throws `DnsUnavailableError`.
 */
export const systemResolve: Resolve = async (hostname) => {
  try {
    return (await lookup(hostname, { all: true, order: 'verbatim' })).map(({ address }) => address);
  } catch (error) {
    const code = String((error as { code?: unknown }).code);
    if (NO_ADDRESS.has(code)) return [];
    throw new DnsUnavailableError(code, hostname, { cause: error });
  }
};

/**
 * How a function learns a webhook host's addresses: the DNS servers `DNS_RESOLVER` names (a test's, the local
 * stack's), else the system resolver (Lambda's).
 */
export function resolveOf(config: { dnsResolver?: string; dnsTimeoutMs: number }): Resolve {
  if (config.dnsResolver === undefined) return systemResolve;
  const dns = configuredResolver(config);
  return (hostname) => dns.lookupHostAddresses(hostname);
}

const NO_PORTS: ReadonlySet<number> = new Set();

/** Sent after the deadline passed; the attempt's outcome no longer depends on what follows. */
const TIMED_OUT = Symbol('timed out');

type Outcome = Omit<DeliveryResult, 'durationMs'>;

export async function deliver({
  url,
  body,
  headers,
  timeoutMs = DELIVERY_TIMEOUT_MS,
  resolve = systemResolve,
  allowLoopback = false,
  reservedPorts = NO_PORTS,
  maxResponseBytes = MAX_RESPONSE_BYTES,
}: DeliveryRequest): Promise<DeliveryResult> {
  const started = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    const outcome = await attempt(
      { url, body, headers, resolve, allowLoopback, reservedPorts, maxResponseBytes },
      deadline.signal,
    );
    return { ...outcome, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

type Attempt = Required<Omit<DeliveryRequest, 'timeoutMs'>>;

async function attempt(request: Attempt, deadline: AbortSignal): Promise<Outcome> {
  const options = { localLoopbackAllowed: request.allowLoopback, reservedPorts: request.reservedPorts };
  const checked = checkWebhookUrl(request.url, options);
  if (!checked.ok) return failure(checked.reason);

  let addresses: readonly string[];
  try {
    const found = checked.ipAddress
      ? [checked.ipAddress]
      : await beforeDeadline(request.resolve(checked.hostname), deadline);
    if (found === TIMED_OUT) return failure('timeout');
    addresses = found;
  } catch {
    return failure('dns');
  }
  const refusal = refusalOfAddresses(checked, addresses, options);
  // Nothing was sent anywhere: a refused destination never sees a connection.
  if (refusal) return failure(refusal === 'unresolvable' ? 'dns' : refusal);
  return send(checked, addresses, request, deadline);
}

const failure = (error: DeliveryError): Outcome => ({ ok: false, error, responseExcerpt: '' });

/** The promise's value, or TIMED_OUT once the deadline passes (a lookup cannot be cancelled, only left). */
function beforeDeadline<T>(promise: Promise<T>, deadline: AbortSignal): Promise<T | typeof TIMED_OUT> {
  if (deadline.aborted) return Promise.resolve(TIMED_OUT);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(TIMED_OUT);
    deadline.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => deadline.removeEventListener('abort', onAbort));
  });
}

/**
 * The connection's lookup, answered with the checked addresses only: Node connects to one of them (with
 * Happy Eyeballs, trying the next when one does not answer) and never asks DNS again.
 */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIPv6(address) ? 6 : 4 }));
  return (_hostname, options, callback) => {
    const [first] = entries;
    if (options.all) callback(null, entries);
    else if (first) callback(null, first.address, first.family);
  };
}

/**
 * Once the status line came, the outcome is the status's: a 2xx is delivered whatever its body does (trickles,
 * breaks off, never ends), so a receiver that answered 200 is not sent the event again. The body is read only
 * for the excerpt, for at most this long after the status (and never past the attempt's deadline).
 */
export const EXCERPT_WAIT_MS = 1_000;

const isSuccess = (statusCode: number | undefined) => statusCode !== undefined && statusCode >= 200 && statusCode < 300;

function send(checked: CheckedUrl, addresses: readonly string[], request: Attempt, deadline: AbortSignal) {
  const options: RequestOptions = {
    method: 'POST',
    headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
    lookup: pinnedLookup(addresses),
    // A fresh connection every time: a pooled socket could have been opened to an address checked earlier.
    agent: false,
  };
  const transport = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Outcome>((settle) => {
    let outcome: Outcome | undefined;
    let address: string | undefined;
    let outgoing: ClientRequest | undefined;
    /** The answer's status and the excerpt read so far, once the status line came. */
    let answer: { statusCode: number | undefined; excerpt: Excerpt } | undefined;
    let excerptTimer: NodeJS.Timeout | undefined;
    const finish = (result: Outcome) => {
      if (outcome) return;
      outcome = { ...result, ...(address === undefined ? {} : { address }) };
      deadline.removeEventListener('abort', onDeadline);
      clearTimeout(excerptTimer);
      // Whatever is left of the answer is not read: the connection is closed, not drained.
      outgoing?.destroy();
      settle(outcome);
    };
    /** The status decides; a failure of the body after it (a reset, the deadline) is kept only outside 2xx. */
    const answered = (error?: DeliveryError) => {
      if (!answer) return;
      const { statusCode, excerpt } = answer;
      const ok = isSuccess(statusCode);
      const status = statusCode === undefined ? {} : { statusCode };
      finish({ ok, ...status, ...(error && !ok ? { error } : {}), responseExcerpt: excerpt.text() });
    };
    const onDeadline = () => (answer ? answered('timeout') : finish(failure('timeout')));
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener('abort', onDeadline, { once: true });

    // `servername` (TLS's SNI and the name the certificate must hold) defaults to the URL's host name.
    outgoing = transport(checked.url, options, (response) => {
      answer = { statusCode: response.statusCode, excerpt: readExcerpt(response, request.maxResponseBytes, answered) };
      excerptTimer = setTimeout(() => answered('timeout'), EXCERPT_WAIT_MS);
    });
    outgoing.on('socket', (socket) =>
      socket.once('connect', () => {
        address = socket.remoteAddress;
      }),
    );
    outgoing.on('error', (error) => (answer ? answered(errorOf(error)) : finish(failure(errorOf(error)))));
    outgoing.end(request.body);
  });
}

type Excerpt = { text(): string };

/**
 * Reads the answer's body up to `maxBytes`, then stops (the caller closes the connection): a receiver cannot
 * make an attempt read megabytes. `done` once the body ended or reached the cap, with an error when it broke
 * off before its end; `text()` is the excerpt of what came so far, for an attempt that stops waiting.
 */
function readExcerpt(response: IncomingMessage, maxBytes: number, done: (error?: DeliveryError) => void): Excerpt {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const complete = (error?: DeliveryError) => {
    if (finished) return;
    finished = true;
    done(error);
  };
  response.on('data', (chunk: Buffer) => {
    if (finished) return;
    const room = maxBytes - size;
    chunks.push(chunk.subarray(0, room));
    size += Math.min(chunk.length, room);
    if (size >= maxBytes) complete();
  });
  response.on('end', () => complete());
  response.on('error', (error) => complete(errorOf(error)));
  response.on('close', () => {
    if (!response.complete) complete('reset');
  });
  return { text: () => excerptOf(Buffer.concat(chunks)) };
}

/** Characters that could forge a log line or hide text (C0, DEL, C1, bidirectional and other format marks). */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]+/gu;

/** A short, printable start of an answer's body, kept with the attempt (never the whole body). */
export function excerptOf(bytes: Buffer): string {
  const text = bytes.toString('utf8').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
  return Array.from(text).slice(0, RESPONSE_EXCERPT_MAX_CHARS).join('').trimEnd();
}

const REFUSED = new Set(['ECONNREFUSED']);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);
const TIMEOUT = new Set(['ETIMEDOUT']);
/**
 * Node's TLS errors (ERR_TLS_CERT_ALTNAME_INVALID, ERR_SSL_…, EPROTO for a failed handshake) and OpenSSL's
 * certificate verification ones (CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, UNABLE_TO_VERIFY_LEAF_SIGNATURE…).
 */
const TLS = /CERT|SSL|TLS|^EPROTO$|^UNABLE_TO_|^HOSTNAME_MISMATCH$|^INVALID_(CA|PURPOSE)$|^PATH_LENGTH_EXCEEDED$/;

/** A network error's kind, as the deliveries list shows it. */
function errorOf(error: unknown): DeliveryError {
  const code = String((error as { code?: unknown }).code ?? '');
  if (REFUSED.has(code)) return 'refused';
  if (RESET.has(code)) return 'reset';
  if (UNREACHABLE.has(code)) return 'unreachable';
  if (TIMEOUT.has(code)) return 'timeout';
  if (TLS.test(code)) return 'tls';
  if (code.startsWith('HPE_')) return 'protocol';
  // Happy Eyeballs reports every address's failure together; the first one's kind stands for them.
  if (error instanceof AggregateError && error.errors.length > 0) return errorOf(error.errors[0]);
  return 'network';
}
