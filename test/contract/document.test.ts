/**
 * The committed OpenAPI document: generated from the code, complete, with valid examples, and a validator
 * (the one every e2e request goes through) that rejects what the document does not allow.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { storeDomainSchema, updateDomainSchema } from '#lib/domains/api/fields.ts';
import { collections } from '#lib/kinds.ts';
import { buildDocument } from '#lib/openapi/document.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { FORM_TYPE, STORED_ID } from '#lib/openapi/operations.ts';
import { JSON_TYPE } from '#lib/openapi/responses.ts';
import { pageHost } from '#lib/platform/urls.ts';
import { apiBasePath, apiPaths, routes } from '#lib/routes.ts';
import { asForm } from '#lib/schemas/fields.ts';
import { storeSpaceSchema, updateSpaceSchema } from '#lib/spaces/api/fields.ts';
import { webhookSchemas } from '#lib/webhooks/api/fields.ts';
import { errorsOf } from '#test/support/fixtures.ts';
import {
  ContractError,
  checkResponse,
  document,
  documentOperations,
  pointerPart,
  schemaErrors,
} from '#test/support/openapi.ts';

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

type Example = { pointer: string; example: unknown; where: string };

/**
 * Every example in the document, with the JSON pointer of the schema it must validate against: an `example`
 * or the `value` of each `examples` entry next to a `schema` (media types, parameters, headers), and each item
 * of a schema's own `examples` list (JSON Schema's keyword), against that schema.
 */
function examples(node: unknown, pointer = ''): Example[] {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return [];
  const found: Example[] = [];
  const record = node as Record<string, unknown>;
  if ('schema' in record) {
    if ('example' in record) found.push({ pointer: `${pointer}/schema`, example: record.example, where: pointer });
    for (const [name, entry] of Object.entries((record.examples ?? {}) as Record<string, { value?: unknown }>)) {
      found.push({ pointer: `${pointer}/schema`, example: entry.value, where: `${pointer}/examples/${name}` });
    }
  }
  // A schema's `examples` list (a property named `examples` in `properties` is a field, not the keyword).
  if (Array.isArray(record.examples) && !pointer.endsWith('/properties')) {
    record.examples.forEach((example, index) => {
      found.push({ pointer, example, where: `${pointer}/examples/${index}` });
    });
  }
  return found.concat(
    Object.entries(record)
      .filter(([key]) => key !== 'examples' || !Array.isArray(record.examples))
      .flatMap(([key, value]) => examples(value, `${pointer}/${pointerPart(key)}`)),
  );
}

/** Every object in a value (an example's resources, nested in envelopes and events). */
function objectsIn(value: unknown): Record<string, unknown>[] {
  if (typeof value !== 'object' || value === null) return [];
  const own = Array.isArray(value) ? [] : [value as Record<string, unknown>];
  return own.concat(Object.values(value).flatMap(objectsIn));
}

/** The request schemas the handlers validate with, by request body component. */
const validators = {
  StoreSpace: storeSpaceSchema,
  UpdateSpace: updateSpaceSchema,
  StoreDomain: storeDomainSchema,
  UpdateDomain: updateDomainSchema,
  StoreWebhook: webhookSchemas({}).store,
  UpdateWebhook: webhookSchemas({}).update,
};

describe('the OpenAPI document', () => {
  it('is what the code generates (run `npm run openapi` after changing routes, schemas or resources)', () => {
    // Act
    const generated = JSON.parse(JSON.stringify(buildDocument()));
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
    // Assess
    expect(committed).toEqual(generated);
  });

  it('documents every route and method of the route table, HEAD on each GET, this document, and nothing else', () => {
    // Act
    const documented = documentOperations().map(({ path, method }) => `${method} /api/v1${path}`);
    // Assess
    const expected = routes.flatMap((route) =>
      route.methods.flatMap((method) => [
        `${method} ${route.path}`,
        ...(method === 'GET' ? [`HEAD ${route.path}`] : []),
      ]),
    );
    expect(documented.sort()).toEqual([...expected, 'GET /api/v1/openapi.json', 'HEAD /api/v1/openapi.json'].sort());
    expect(document.openapi).toBe('3.1.0');
  });

  it("lists each path's methods in x-allow, its Allow: its operations and OPTIONS", () => {
    // Act / Assess
    for (const [path, item] of Object.entries(document.paths)) {
      const methods = documentOperations()
        .filter((entry) => entry.path === path)
        .map(({ method }) => method);
      expect([...(item['x-allow'] ?? [])].sort(), path).toEqual([...methods, 'OPTIONS'].sort());
    }
    expect(Object.keys(document.paths).map((path) => `${apiBasePath}${path}`)).toEqual(
      apiPaths.map(({ path }) => path),
    );
    expect(document['x-method-not-allowed'].content?.[JSON_TYPE]).toMatchObject({
      example: { message: 'Method Not Allowed.', status: 405 },
    });
    expect(Object.keys(document['x-preflight'].headers ?? {})).toEqual(
      expect.arrayContaining([
        'Access-Control-Allow-Methods',
        'Access-Control-Allow-Headers',
        'Access-Control-Max-Age',
      ]),
    );
  });

  it('has examples that validate against their schemas', () => {
    // Prepare
    const found = examples(document);
    // Act
    const invalid = found
      .map(({ pointer, example, where }) => ({ where, errors: schemaErrors(pointer, example) }))
      .filter((entry) => entry.errors !== null);
    // Assess: every response and request body has one, and the request fields their own.
    expect(found.length).toBeGreaterThanOrEqual(60);
    expect(
      found.filter(({ where }) => /\/properties\/[a-z_]+\/examples\/0$/.test(where)).length,
    ).toBeGreaterThanOrEqual(10);
    expect(invalid).toEqual([]);
  });

  it('has request examples that the service accepts, as JSON and as a form', () => {
    // Prepare
    const bodies = (document.components as unknown as { requestBodies: Record<string, Record<string, unknown>> })
      .requestBodies;
    // Act
    const refused = Object.entries(bodies).flatMap(([name, body]) =>
      Object.entries(body.content as Record<string, { example: Record<string, unknown> }>).map(([type, media]) => {
        const input = type === FORM_TYPE ? asForm({ ...media.example }) : { ...media.example };
        return { name, type, errors: errorsOf(validators[name as keyof typeof validators], input) };
      }),
    );
    // Assess
    expect(refused).toHaveLength(12);
    expect(refused.filter((entry) => entry.errors !== null)).toEqual([]);
  });

  it('has no example of a domain whose page is on the domain itself (the service refuses such a page)', () => {
    // Prepare
    const domains = examples(document)
      .flatMap(({ example }) => objectsIn(example))
      .filter((object) => typeof object.name === 'string' && 'index_page' in object);
    // Act
    const looping = domains.filter((domain) =>
      [domain.index_page, domain.not_found_page].some(
        (page) => typeof page === 'string' && pageHost(page) === domain.name,
      ),
    );
    // Assess
    expect(domains.length).toBeGreaterThanOrEqual(5);
    expect(looping).toEqual([]);
  });
});

describe('the links', () => {
  it.each(Object.keys(collections) as (keyof typeof collections)[])(
    "connect a %s store's 201 to every operation on the stored item, by its data.id",
    (collection) => {
      // Prepare
      const store = documentOperations().find(({ path, method }) => path === `/${collection}` && method === 'POST');
      const created = store?.operation.responses['201'] as {
        links?: Record<string, { operationId: string; parameters: Record<string, string> }>;
      };
      const itemOperations = documentOperations().filter(
        ({ path, method }) => path.startsWith(`/${collection}/{id}`) && method !== 'HEAD',
      );
      // Act
      const linked = Object.values(created.links ?? {});
      // Assess: show, PATCH and PUT, delete (a domain's verify; a webhook's rotate-secret, test and deliveries),
      // each with `id` from the answer's body.
      expect(linked.map(({ operationId }) => operationId).sort()).toEqual(
        itemOperations.map(({ operation }) => operation.operationId).sort(),
      );
      expect(linked.length).toBe({ domains: 5, spaces: 4, webhooks: 7 }[collection]);
      for (const link of linked) expect(link.parameters).toEqual({ id: STORED_ID });
    },
  );

  it("resolve, on the store's example answer, to an id the linked operations accept", () => {
    for (const { operation } of documentOperations().filter(
      ({ method, path }) => method === 'POST' && !path.includes('{'),
    )) {
      // Prepare
      const created = operation.responses['201'] as unknown as { content: Record<string, { example: unknown }> };
      const pointer = STORED_ID.slice('$response.body#'.length);
      // Act: the runtime expression's JSON pointer, on the example body.
      const id = pointer
        .split('/')
        .slice(1)
        .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], created.content[JSON_TYPE]?.example);
      // Assess
      expect(schemaErrors('/components/parameters/Id/schema', id), operation.operationId).toBeNull();
    }
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

  it('accepts HEAD as documented: the GET answer’s status and headers, no body', () => {
    // Prepare
    const head = { ...json(200, undefined), text: '' };
    // Act / Assess
    expect(() => checkResponse('HEAD', url('/spaces/1'), head)).not.toThrow();
    expect(() => checkResponse('HEAD', url('/spaces/1'), { ...head, text: '{}' })).toThrow(/without a body/);
    expect(() => checkResponse('HEAD', url('/spaces'), { ...head, status: 201 })).toThrow(/not documented/);
  });

  it("requires 405 with the path's methods in Allow for a method a path does not have", () => {
    // Prepare
    const notAllowed = (allow: string) =>
      json(405, { message: 'Method Not Allowed.', status: 405 }, { Allow: allow, 'X-Request-Id': 'r-1' });
    const notFound = json(404, { message: 'Resource not found.', status: 404 });
    // Act / Assess
    expect(() => checkResponse('DELETE', url('/spaces'), notAllowed('GET, HEAD, OPTIONS, POST'))).not.toThrow();
    expect(() =>
      checkResponse('POST', url('/spaces/3'), notAllowed('DELETE, GET, HEAD, OPTIONS, PATCH, PUT')),
    ).not.toThrow();
    expect(() => checkResponse('DELETE', url('/spaces'), notAllowed('GET, POST'))).toThrow(/allow must list/);
    expect(() => checkResponse('GET', url('/domains/3/verify'), notAllowed('OPTIONS, POST'))).not.toThrow();
    expect(() =>
      checkResponse(
        'DELETE',
        url('/spaces'),
        json(405, { message: 'x', status: 404 }, { Allow: 'GET, HEAD, OPTIONS, POST' }),
      ),
    ).toThrow(ContractError);
    expect(() => checkResponse('DELETE', url('/spaces'), notFound)).toThrow(/must answer 405/);
  });

  it("requires OPTIONS to answer the preflight: 204, the path's methods, no body", () => {
    // Prepare
    const preflight = (methods: string, text = '') => ({
      status: 204,
      headers: new Headers({
        Allow: methods,
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': methods,
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match',
        'Access-Control-Max-Age': '600',
        'X-Request-Id': 'r-1',
      }),
      body: undefined,
      text,
    });
    const from = (allowedOrigin: boolean) => {
      const reply = preflight('GET, HEAD, OPTIONS');
      if (!allowedOrigin) {
        for (const name of ['Origin', 'Methods', 'Headers', 'Max-Age'])
          reply.headers.delete(`access-control-allow-${name}`);
        reply.headers.delete('access-control-max-age');
      }
      return reply;
    };
    const withoutAllow = preflight('GET, HEAD, OPTIONS');
    withoutAllow.headers.delete('allow');
    // Act / Assess
    expect(() => checkResponse('OPTIONS', url('/events'), preflight('GET, HEAD, OPTIONS'))).not.toThrow();
    expect(() => checkResponse('OPTIONS', url('/events'), from(false))).not.toThrow();
    expect(() => checkResponse('OPTIONS', url('/events'), preflight('GET, POST'))).toThrow(/must list GET, HEAD/);
    expect(() => checkResponse('OPTIONS', url('/events'), preflight('GET, HEAD, OPTIONS', '{}'))).toThrow(/body/);
    expect(() => checkResponse('OPTIONS', url('/events'), withoutAllow)).toThrow(/Allow header is missing/);
  });

  it('requires OPTIONS on a path the API does not have (under the base path) to answer the preflight', () => {
    // Prepare: Allow names OPTIONS, the CORS methods every method of the API.
    const every = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
    const notFound = json(404, { message: 'Resource not found.', status: 404 });
    const unknown = (allow: string, methods: string) => ({
      status: 204,
      headers: new Headers({
        Allow: allow,
        'Access-Control-Allow-Origin': '*',
        'Access-Control-Allow-Methods': methods,
        'X-Request-Id': 'r-1',
      }),
      body: undefined,
      text: '',
    });
    // Act / Assess
    expect(() => checkResponse('OPTIONS', url('/nothing/here'), unknown('OPTIONS', every))).not.toThrow();
    expect(() => checkResponse('OPTIONS', url('/spaces/1/x'), unknown('OPTIONS', every))).not.toThrow();
    expect(() => checkResponse('OPTIONS', url('/nothing'), unknown('OPTIONS', 'GET'))).toThrow(/must list GET/);
    expect(() => checkResponse('OPTIONS', url('/nothing'), notFound)).toThrow(/must answer 204/);
    expect(() => checkResponse('OPTIONS', 'http://127.0.0.1:3000/elsewhere', notFound)).not.toThrow();
  });

  it('checks this document’s own answer, without a key', () => {
    // Act / Assess
    const cached = { 'Cache-Control': 'public, max-age=300' };
    expect(() => checkResponse('GET', url('/openapi.json'), json(200, document, cached))).not.toThrow();
    expect(() => checkResponse('GET', url('/openapi.json'), json(200, document))).toThrow(/Cache-Control/);
    expect(() => checkResponse('GET', url('/openapi.json'), json(200, { openapi: '3.0.0' }, cached))).toThrow(
      ContractError,
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
    expect(() => checkResponse('DELETE', url('/users/1'), json(405, { message: 'x', status: 405 }))).toThrow(
      /must answer 404/,
    );
    expect(() =>
      checkResponse('GET', url('/users'), json(404, { message: 'Resource not found.', status: 404 })),
    ).not.toThrow();
  });
});
