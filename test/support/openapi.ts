/**
 * Checks a live response against the committed OpenAPI document (`docs/openapi.json`) with ajv (JSON Schema
 * 2020-12, OpenAPI 3.1's dialect): the status must be documented for the operation, the body must validate
 * (documented objects forbid other fields), and documented required headers must be there. A method a path
 * does not have must answer the document's `x-method-not-allowed` (405, `Allow` naming the path's `x-allow`),
 * `OPTIONS` its `x-preflight` (204), and a path it does not have 404 (but `OPTIONS` under the base path: the
 * preflight). The shared e2e client (`./http.ts`) runs
 * it on every response, so every e2e and reliability request is checked.
 */
import { readFileSync } from 'node:fs';
import { domainToASCII, domainToUnicode } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { DOCS_PATH } from '#lib/openapi/public.ts';
import { apiBasePath, apiMethods, underApi } from '#lib/routes.ts';

type Ref = { $ref?: string };
type Header = Ref & { required?: boolean; schema?: object };
type Response = Ref & { headers?: Record<string, Header>; content?: Record<string, { schema: object }> };
type OperationObject = { operationId: string; summary: string; tags: string[]; responses: Record<string, Response> };
type PathItem = Record<string, unknown> & { 'x-allow'?: string[] };
export type OpenApi = {
  openapi: string;
  tags: { name: string }[];
  paths: Record<string, PathItem>;
  components: { responses: Record<string, Response> };
  'x-preflight': Response;
  'x-method-not-allowed': Response;
};

/** The HTTP methods a path item may hold (its other keys are `x-` extensions and shared fields). */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
export type CheckedReply = { status: number; headers: Headers; body: unknown; text: string };

const DOCUMENT_ID = 'openapi.json';
export const document: OpenApi = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));

const ajv = new Ajv2020({ allErrors: true, strict: true });
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
addFormats(ajv, ['date-time']);
// The service's own rule for URLs (`URL.canParse`), which also accepts the non-ASCII URLs it stores.
ajv.addFormat('uri', (value: string) => URL.canParse(value));
// An internationalized host name (RFC 5890), as IDNA writes it: in Unicode (lower case, NFC, nothing IDNA maps
// or drops) or in ASCII, each label one IDNA takes, in ASCII letters, digits and inner hyphens (RFC 1123).
ajv.addFormat('idn-hostname', (value: string) => {
  const ascii = domainToASCII(value);
  const labels = ascii.split('.');
  if (ascii === '' || !labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label))) return false;
  return value === ascii || value === domainToUnicode(ascii);
});
// A URI reference (`Location`): absolute, or relative to the URL called.
ajv.addFormat('uri-reference', (value: string) => URL.canParse(value, 'http://127.0.0.1/'));
// The document's top-level fields are not JSON Schema keywords; its schemas are reached by JSON pointer.
ajv.addVocabulary([
  'openapi',
  'info',
  'servers',
  'security',
  'tags',
  'paths',
  'webhooks',
  'components',
  'x-preflight',
  'x-method-not-allowed',
]);
ajv.addSchema(document, DOCUMENT_ID);

const validators = new Map<string, ValidateFunction>();

/** ajv's errors for a value against the schema at a JSON pointer into the document, or null when valid. */
export function schemaErrors(pointer: string, value: unknown): string | null {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate(value) ? null : ajv.errorsText(validate.errors, { dataVar: 'body' });
}

export const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** Follows local `$ref`s in the document; returns the object and its JSON pointer. */
export function resolveRef<T extends object>(
  value: T | { $ref?: string },
  pointer = '',
): { value: T; pointer: string } {
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return { value: value as T, pointer };
  const target = ref.slice(1);
  const found = target
    .split('/')
    .slice(1)
    .reduce<unknown>(
      (node, part) => (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')],
      document,
    );
  return resolveRef<T>(found as T, target);
}

const pathPattern = (path: string) => new RegExp(`^${apiBasePath}${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);

const paths = Object.entries(document.paths).map(([path, item]) => ({
  pattern: pathPattern(path),
  allow: item['x-allow'] ?? [],
}));

/** Every operation of the document: its path (as the document writes it), method (upper case) and object. */
export const documentOperations = (): { path: string; method: string; operation: OperationObject }[] =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method: method.toUpperCase(), operation: operation as OperationObject })),
  );

const operations = documentOperations().map(({ path, method, operation }) => ({
  pattern: pathPattern(path),
  method,
  id: operation.operationId,
  responses: operation.responses,
  pointer: `/paths/${pointerPart(path)}/${method.toLowerCase()}/responses`,
}));

/** Statuses seen per operation id (`*unmatched*` for requests no operation matches). */
export const seen = new Map<string, Set<number>>();
const record = (id: string, status: number) => seen.set(id, (seen.get(id) ?? new Set()).add(status));

export class ContractError extends Error {}

/** A documented answer; for the path conventions, the methods its `Allow` and its CORS methods name. */
type Documented = { value: Response; pointer: string; allow?: readonly string[]; corsMethods?: readonly string[] };

const notFound = () => resolveRef(document.components.responses.NotFound as Response, '/components/responses/NotFound');

/** The documented response for this request and status, or the reason there is none. */
function documentedResponse(method: string, path: string, status: number): Documented | string {
  const operation = operations.find((entry) => entry.method === method && entry.pattern.test(path));
  if (operation) {
    record(operation.id, status);
    const response = operation.responses[String(status)];
    if (!response) return `the status is not documented for ${operation.id}`;
    return resolveRef(response, `${operation.pointer}/${status}`);
  }
  const item = paths.find((entry) => entry.pattern.test(path));
  if (!item && method === 'OPTIONS' && underApi(path)) {
    // A path the API does not have, under its base path, answers the preflight: `Allow: OPTIONS`, and every
    // method of the API for a page to send (it then reads the 404).
    record('*unmatched preflight*', status);
    if (status !== 204) return "OPTIONS under the base path must answer 204 (the document's x-preflight)";
    return { ...resolveRef(document['x-preflight'], '/x-preflight'), allow: ['OPTIONS'], corsMethods: apiMethods };
  }
  if (!item) {
    record('*unmatched*', status);
    // A path the API does not have answers the 404 error.
    return status === 404 ? notFound() : 'a request to a path the document does not have must answer 404';
  }
  // A path the API has, with a method it does not have: the preflight for OPTIONS, 405 for any other.
  const [name, expected] = method === 'OPTIONS' ? ['x-preflight', 204] : ['x-method-not-allowed', 405];
  record(`*${name}*`, status);
  if (status !== expected) return `${method} on this path must answer ${expected} (the document's ${name})`;
  return { ...resolveRef(document[name as 'x-preflight'], `/${name}`), allow: item.allow, corsMethods: item.allow };
}

/** A header's list of methods as a set: `GET, head` is `GET,HEAD`. */
const methodList = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter((method) => method !== '')
    .sort()
    .join(',');

/** Throws a ContractError when the reply is not what the document says this request answers. */
export function checkResponse(method: string, url: string, reply: CheckedReply): void {
  const path = new URL(url).pathname;
  // The reference page is not part of the API (it is not under its base path).
  if (path === DOCS_PATH) return;
  const verb = method.toUpperCase();
  const fail = (problem: string): never => {
    const where = `${verb} ${path} answered ${reply.status}, which docs/openapi.json does not allow`;
    throw new ContractError(`${where}: ${problem}\n${reply.text.slice(0, 600)}`);
  };
  const documented = documentedResponse(verb, path, reply.status);
  const response = typeof documented === 'string' ? fail(documented) : documented;
  for (const [name, header] of Object.entries(response.value.headers ?? {})) {
    if (resolveRef(header, '').value.required && !reply.headers.has(name)) fail(`the ${name} header is missing`);
  }
  // 405's `Allow`, and a preflight's `Allow` and allowed methods (when present), are the path's methods (on a
  // path the API does not have: OPTIONS, and every method of the API).
  const listed: [string, readonly string[]][] =
    response.pointer === '/x-method-not-allowed'
      ? [['allow', response.allow ?? []]]
      : response.pointer === '/x-preflight'
        ? [
            ['allow', response.allow ?? []],
            ['access-control-allow-methods', response.corsMethods ?? []],
          ]
        : [];
  for (const [name, methods] of listed) {
    const value = reply.headers.get(name);
    if ((value !== null || name === 'allow') && methodList(value) !== methodList(methods.join(','))) {
      fail(`${name} must list ${methods.join(', ')}`);
    }
  }
  // A HEAD answer, and a response documented without content (304, a preflight), have no body.
  if (verb === 'HEAD' || !response.value.content) {
    if (reply.text !== '') fail('the response is documented without a body');
    return;
  }
  const contentType = reply.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  if (!response.value.content?.[contentType]) fail(`the Content-Type ${contentType} is not documented`);
  const errors = schemaErrors(`${response.pointer}/content/${pointerPart(contentType)}/schema`, reply.body);
  if (errors) fail(errors);
}
