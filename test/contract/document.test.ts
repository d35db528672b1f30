/**
 * The committed OpenAPI document: generated from the code, complete, with valid examples, and a validator
 * (the one every e2e request goes through) that rejects what the document does not allow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocument } from '#lib/openapi/document.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { routes } from '#lib/routes.ts';
import { ContractError, checkResponse, document, schemaErrors } from '#test/support/openapi.ts';

const url = (path: string) => `http://127.0.0.1:1/api/v1${path}`;
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'Content-Type': 'application/json', 'X-Request-Id': 'r-1', ETag: '"1"', ...headers }),
  body,
  text: JSON.stringify(body),
});
const space = {
  id: 1,
  name: 'A',
  color: 1,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
};

/** Every `example` next to a `schema` in the document, with the JSON pointer of that schema. */
function examples(node: unknown, pointer = ''): { pointer: string; example: unknown }[] {
  if (typeof node !== 'object' || node === null) return [];
  const found = 'schema' in node && 'example' in node ? [{ pointer: `${pointer}/schema`, example: node.example }] : [];
  return found.concat(
    Object.entries(node).flatMap(([key, value]) =>
      examples(value, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`),
    ),
  );
}

describe('the OpenAPI document', () => {
  it('is what the code generates (run `npm run openapi` after changing routes, schemas or resources)', () => {
    // Act
    const generated = JSON.parse(JSON.stringify(buildDocument()));
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    // Assess
    expect(committed).toEqual(generated);
  });

  it('documents every route and method of the route table, and nothing else', () => {
    // Act
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} /api/v1${path}`),
    );
    // Assess
    const expected = routes.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`));
    expect(documented.sort()).toEqual(expected.sort());
    expect(document.openapi).toBe('3.1.0');
  });

  it('has examples that validate against their schemas', () => {
    // Prepare
    const found = examples(document);
    // Act
    const invalid = found
      .map(({ pointer, example }) => ({ pointer, errors: schemaErrors(pointer, example) }))
      .filter((entry) => entry.errors !== null);
    // Assess: every response and request body has one.
    expect(found.length).toBeGreaterThanOrEqual(30);
    expect(invalid).toEqual([]);
  });
});

describe('the response validator', () => {
  it('accepts a documented response', () => {
    // Act
    const check = () => checkResponse('GET', url('/spaces/1'), json(200, { data: space }));
    // Assess
    expect(check).not.toThrow();
  });

  it('rejects a field the document does not describe', () => {
    // Act
    const check = () => checkResponse('GET', url('/spaces/1'), json(200, { data: { ...space, owner: 'x' } }));
    // Assess
    expect(check).toThrow(/must NOT have additional properties/);
  });

  it('rejects a wrong type, a missing field and a value out of range', () => {
    // Prepare
    const { name: _name, ...nameless } = space;
    // Act / Assess
    expect(() => checkResponse('GET', url('/spaces/1'), json(200, { data: { ...space, id: '1' } }))).toThrow(
      ContractError,
    );
    expect(() => checkResponse('GET', url('/spaces/1'), json(200, { data: nameless }))).toThrow(/name/);
    expect(() => checkResponse('GET', url('/spaces/1'), json(200, { data: { ...space, color: 7 } }))).toThrow(/color/);
  });

  it('requires the ETag of a show, and a 304 without a body', () => {
    // Prepare
    const untagged = json(200, { data: space });
    untagged.headers.delete('etag');
    const notModified = { status: 304, headers: new Headers({ ETag: '"1"', 'X-Request-Id': 'r-1' }), body: undefined };
    // Act / Assess
    expect(() => checkResponse('GET', url('/spaces/1'), untagged)).toThrow(/ETag header is missing/);
    expect(() => checkResponse('GET', url('/spaces/1'), { ...notModified, text: '' })).not.toThrow();
    expect(() => checkResponse('GET', url('/spaces/1'), { ...notModified, text: '{}' })).toThrow(/without a body/);
  });

  it('rejects a status that is not documented for the operation', () => {
    // Act
    const check = () => checkResponse('GET', url('/spaces/1'), json(422, { message: 'x', errors: {}, status: 422 }));
    // Assess
    expect(check).toThrow(/not documented for showSpace/);
  });

  it('rejects an error body whose status does not match, and a missing Retry-After', () => {
    // Act / Assess
    expect(() => checkResponse('GET', url('/spaces/1'), json(404, { message: 'x', status: 400 }))).toThrow(/status/);
    expect(() => checkResponse('GET', url('/spaces'), json(503, { message: 'x', status: 503 }))).toThrow(
      /Retry-After header is missing/,
    );
  });

  it('rejects a body that is not JSON, and anything but 404 for a request no operation matches', () => {
    // Act / Assess
    const html = {
      ...json(200, undefined),
      headers: new Headers({ 'Content-Type': 'text/html', 'X-Request-Id': 'r-1' }),
      text: '<p>',
    };
    expect(() => checkResponse('GET', url('/spaces'), html)).toThrow(/Content-Type text\/html/);
    expect(() => checkResponse('GET', url('/users'), json(200, { data: [] }))).toThrow(/must answer 404/);
    expect(() =>
      checkResponse('GET', url('/users'), json(404, { message: 'Resource not found.', status: 404 })),
    ).not.toThrow();
  });
});
