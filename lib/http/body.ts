/**
 * Request body parsing: form-encoded or JSON, size-capped, into a prototype-free record. A form's record is
 * marked as such (`asForm`), so the request schemas read it by the form rules, and a JSON body by the strict ones.
 */
import { BadRequestError, MAX_BODY_BYTES, PayloadTooLargeError, UnsupportedMediaTypeError } from '#lib/http/errors.ts';
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

/** A `Content-Type`'s media type, lower case, without its parameters (`; charset=UTF-8`). */
export const mediaTypeOf = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase();

/** Strict: a byte sequence that is not UTF-8 throws, where `Buffer#toString` would put U+FFFD in its place. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** U+FFFD, the character a decoder puts where bytes were not UTF-8. */
const REPLACEMENT_CHARACTER = '\uFFFD';

const notUtf8 = () => new BadRequestError('The request body is not valid UTF-8.');

/**
 * The body's text, refusing bytes that are not UTF-8 (a 400, never stored as U+FFFD). API Gateway (REST, no
 * binary media types) hands a JSON or form body to the function as a string it has already decoded ("Text data |
 * Any data type | Undefined | Undefined | UTF8-encoded string",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-payload-encodings-workflow.html), each
 * invalid byte turned into U+FFFD; the local gateway decodes the same way. By then the bytes are gone, so a raw
 * U+FFFD in the text is refused: it cannot be told from the decoder's. (An escaped one, `\uFFFD` in JSON or
 * `%EF%BF%BD` in a form, is data and taken.) We do not declare binary media types to get the bytes instead:
 * `application/json` as one would make API Gateway base64-convert the answers of its own integrations (the
 * preflight, the 405s, the document) by the request's `Accept` (same page, the response table). A body that does
 * arrive base64-encoded is decoded strictly.
 */
function textOf(body: string, isBase64Encoded: boolean): string {
  if (isBase64Encoded) {
    try {
      return utf8.decode(Buffer.from(body, 'base64'));
    } catch {
      throw notUtf8();
    }
  }
  if (body.includes(REPLACEMENT_CHARACTER)) throw notUtf8();
  return body;
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
