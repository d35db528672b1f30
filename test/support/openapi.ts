/**
 * Checks a live response against the committed OpenAPI document (`docs/openapi.json`) with ajv (JSON Schema
 * 2020-12, OpenAPI 3.1's dialect): the status must be documented for the operation, the body must validate
 * (documented objects forbid other fields), and documented required headers must be there. The shared e2e
 * client (`./http.ts`) runs it on every response, so every e2e and reliability request is checked.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { DOCS_PATH, OPENAPI_PATH } from '#lib/openapi/public.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { apiBasePath } from '#lib/routes.ts';

type Json = Record<string, any>;
export type CheckedReply = { status: number; headers: Headers; body: unknown; text: string };

const DOCUMENT_ID = 'openapi.json';
export const document: Json = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));

const ajv = new Ajv2020({ allErrors: true, strict: true });
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
addFormats(ajv, ['date-time']);
// The service's own rule for URLs (`URL.canParse`), which also accepts the non-ASCII URLs it stores.
ajv.addFormat('uri', (value: string) => URL.canParse(value));
// The document's top-level fields are not JSON Schema keywords; its schemas are reached by JSON pointer.
ajv.addVocabulary(['openapi', 'info', 'servers', 'security', 'tags', 'paths', 'components']);
ajv.addSchema(document, DOCUMENT_ID);

const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

/** Follows a local `$ref`; returns the object and its JSON pointer. */
function resolve(value: Json, pointer: string): { value: Json; pointer: string } {
  if (typeof value.$ref !== 'string') return { value, pointer };
  const target = value.$ref.slice(1);
  const found = target
    .split('/')
    .slice(1)
    .reduce((node: Json, part: string) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return resolve(found, target);
}

type Operation = { id: string; pointer: string; value: Json };

const operations = Object.entries(document.paths as Json).flatMap(([path, item]) => {
  const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  return Object.entries(item as Json).map(([method, value]) => ({
    pattern,
    method: method.toUpperCase(),
    operation: { id: value.operationId as string, pointer: `/paths/${escape(path)}/${method}`, value },
  }));
});

function findOperation(method: string, path: string): Operation | undefined {
  if (!path.startsWith(`${apiBasePath}/`)) return undefined;
  const relative = path.slice(apiBasePath.length);
  return operations.find((entry) => entry.method === method && entry.pattern.test(relative))?.operation;
}

/** Statuses seen per operation id (`*unmatched*` for requests no operation matches). */
export const seen = new Map<string, Set<number>>();
const record = (id: string, status: number) => seen.set(id, (seen.get(id) ?? new Set()).add(status));

export class ContractError extends Error {}

/** Throws a ContractError when the reply is not what the document says this request answers. */
export function checkResponse(method: string, url: string, reply: CheckedReply): void {
  const path = new URL(url).pathname;
  if (path === OPENAPI_PATH || path === DOCS_PATH) return;
  const where = `${method} ${path} answered ${reply.status}`;
  const fail = (problem: string): never => {
    throw new ContractError(`${where}, which docs/openapi.json does not allow: ${problem}\n${reply.text.slice(0, 600)}`);
  };
  const operation = findOperation(method.toUpperCase(), path);
  // API Gateway answers a route or method that is not in the document with the 404 error.
  const responsePointer = operation
    ? `${operation.pointer}/responses/${reply.status}`
    : '/components/responses/NotFound';
  record(operation?.id ?? '*unmatched*', reply.status);
  if (!operation && reply.status !== 404) fail('a request that matches no operation must answer 404');
  const raw = operation ? operation.value.responses[String(reply.status)] : document.components.responses.NotFound;
  if (!raw) fail(`the status is not documented for ${operation?.id}`);
  const response = resolve(raw, responsePointer);
  for (const [name, header] of Object.entries((response.value.headers ?? {}) as Json)) {
    if (resolve(header, '').value.required && !reply.headers.has(name)) fail(`the ${name} header is missing`);
  }
  if (method.toUpperCase() === 'HEAD') return;
  const contentType = reply.headers.get('content-type')?.split(';')[0]?.trim();
  if (!response.value.content?.[contentType ?? '']) fail(`the Content-Type ${contentType} is not documented`);
  const validate = validatorAt(`${response.pointer}/content/${escape(contentType as string)}/schema`);
  if (!validate(reply.body)) fail(ajv.errorsText(validate.errors, { dataVar: 'body' }));
}

/** ajv's errors for a value against the schema at a JSON pointer into the document, or null when valid. */
export function schemaErrors(pointer: string, value: unknown): string | null {
  const validate = validatorAt(pointer);
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

export { resolve as resolveRef };
