/**
 * Request body parsing: form-encoded or JSON, size-capped, into a prototype-free record. A form's record is
 * marked as such (`asForm`), so the request schemas read it by the form rules, and a JSON body by the strict ones.
 */
import { BadRequestError, MAX_BODY_BYTES, PayloadTooLargeError, UnsupportedMediaTypeError } from '#lib/errors.ts';
import { asForm } from '#lib/schemas/fields.ts';
import type { ApiRequest } from './handler.ts';
import { header } from './headers.ts';

export { MAX_BODY_BYTES };

const BYTE_ORDER_MARK = '\uFEFF';

export type Fields = Record<string, unknown>;

/**
 * Decodes one form component strictly: a broken percent-escape or invalid UTF-8 is a 400, where
 * URLSearchParams would quietly store U+FFFD in the user's data.
 */
function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw new BadRequestError('The request body is not valid form data.');
  }
}

function* formPairs(text: string): Generator<[string, string]> {
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    yield [decodeFormComponent(key), equals === -1 ? '' : decodeFormComponent(pair.slice(equals + 1))];
  }
}

/** Repeated keys and bracketed keys (`name[]=x`, `name[a]=x`) become lists, which the schemas reject. */
export function parseForm(text: string): Fields {
  const fields: Fields = asForm(Object.create(null));
  for (const [rawKey, value] of formPairs(text)) {
    const bracket = rawKey.indexOf('[');
    const key = bracket > 0 ? rawKey.slice(0, bracket) : rawKey;
    const previous = fields[key];
    if (previous === undefined) fields[key] = bracket > 0 ? [value] : value;
    else fields[key] = [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return fields;
}

function parseJson(text: string): Fields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadRequestError('The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new BadRequestError('The request body must be a JSON object.');
  }
  return Object.assign(Object.create(null), value) as Fields;
}

/**
 * The media types a body may have, as the request schemas read them. They are also the REST API's
 * `binaryMediaTypes` (`infra/constructs/rest-api.ts`), so that API Gateway hands such a body to the function
 * as its bytes: without it, API Gateway converts a request payload to a UTF-8 string before the integration
 * sees it ("Text data | Any data type | Undefined | Undefined | UTF8-encoded string",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-payload-encodings-workflow.html),
 * and bytes that are not UTF-8 could no longer be told from a U+FFFD the client sent. With it, a Lambda proxy
 * integration receives the body base64-encoded, with `isBase64Encoded: true`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-payload-encodings.html). The
 * local gateway does the same (`isBodyMediaType`).
 */
export const BODY_MEDIA_TYPES = ['application/x-www-form-urlencoded', 'application/json'] as const;

/** A `Content-Type`'s media type, lower case, without its parameters (`; charset=UTF-8`). */
export const mediaTypeOf = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase();

/** Whether API Gateway passes a body of this `Content-Type` as bytes (base64), as `BODY_MEDIA_TYPES` says. */
export const isBodyMediaType = (contentType: string | undefined): boolean =>
  (BODY_MEDIA_TYPES as readonly (string | undefined)[]).includes(mediaTypeOf(contentType));

/** Strict: a byte sequence that is not UTF-8 throws, where `Buffer#toString` would put U+FFFD in its place. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body's text. A base64 body (what API Gateway passes for `BODY_MEDIA_TYPES`, and the local gateway too)
 * is decoded strictly: bytes that are not UTF-8 are a 400, never stored as U+FFFD. A body passed as a string
 * (a test's event, a deployment without the binary media types) is text already, taken as it is.
 */
function textOf(body: string, isBase64Encoded: boolean): string {
  if (!isBase64Encoded) return body;
  try {
    return utf8.decode(Buffer.from(body, 'base64'));
  } catch {
    throw new BadRequestError('The request body is not valid UTF-8.');
  }
}

export function parseBody(body: string | null, isBase64Encoded: boolean, contentType: string | undefined): Fields {
  if (body === null || body === '') return Object.create(null);
  const bytes = Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
  if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError();
  const mediaType = mediaTypeOf(contentType);
  if (mediaType !== 'application/x-www-form-urlencoded' && mediaType !== 'application/json') {
    throw new UnsupportedMediaTypeError();
  }
  const decoded = textOf(body, isBase64Encoded);
  // A byte order mark before the body is read past, as RFC 8259 §8.1 lets a JSON parser do (and a form alike).
  const text = decoded.startsWith(BYTE_ORDER_MARK) ? decoded.slice(1) : decoded;
  return mediaType === 'application/json' ? parseJson(text) : parseForm(text);
}

/**
 * A request's parsed body (form or JSON); throws the 4xx contract errors. Only the functions that take a body
 * import this, so the others carry no body parser.
 */
export const bodyOf = ({ event }: Pick<ApiRequest, 'event'>): Fields =>
  parseBody(event.body, event.isBase64Encoded, header(event.headers, 'content-type'));
