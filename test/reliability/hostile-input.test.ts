/**
 * Hostile input, over real HTTP: property-based (fast-check) bodies, query strings, path ids and headers.
 * Whatever arrives, the answer is never a 500, errors are JSON `{message, status}` with a documented
 * status, and a rejected request changes nothing. Pinned cases below spell out the exact answers for
 * lists in forms, repeated keys and DynamoDB expression syntax in `search`.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { foldName } from '#lib/data/keys.ts';
import { acceptsJson } from '#lib/http/headers.ts';
import { type Client, newClient, type Reply, send, startTestGateway } from '#test/support/http.ts';
import { expectConsistent, expectErrorContract, NOT_FOUND } from './helpers.ts';

/** Modest run counts: each run is a real HTTP request on a shared 2-core machine. */
const RUNS = { numRuns: 40 };

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

/** The statuses each operation documents (besides 401/429/503, which these tests do not provoke). */
const documented = {
  list: [200, 422],
  show: [200, 404],
  store: [201, 400, 413, 415, 422],
  update: [200, 400, 404, 413, 415, 422],
  destroy: [200, 404],
} as const;

function expectAnswer(reply: Reply, allowed: readonly number[]) {
  expect(reply.status, reply.text.slice(0, 300)).not.toBe(500);
  expect(allowed, `${reply.status} ${reply.text.slice(0, 300)}`).toContain(reply.status);
  if (reply.status >= 400) expectErrorContract(reply);
  else expect(reply.headers.get('content-type')).toBe('application/json');
}

// ---- Generators -------------------------------------------------------------------------------------

const fieldNames = fc.constantFrom(
  'name',
  'color',
  'index_page',
  'not_found_page',
  'name[]',
  'name[0]',
  'name[a][b]',
  'color[]',
  '__proto__',
  '__proto__[name]',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
);

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202e\u200b',
  '\ufeff',
  '😀'.repeat(20),
  'x'.repeat(300),
  'null',
  'undefined',
  '[]',
  '{}',
  '3',
  '-1',
  '1e3',
  '2.5',
  ':name',
  '#fold',
  ')',
  'https://example.com/',
  'javascript:alert(1)',
  'xn--nxasmq6b.com',
  'Ω.com',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR '1'='1",
);

const anyText = fc.oneof(
  nastyStrings,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer().map(String),
  fc.string({ maxLength: 3000 }),
);

/** Raw fragments that are not valid form encoding: broken escapes, invalid UTF-8, stray separators. */
const brokenFragments = fc.constantFrom(
  '%',
  '%zz',
  '%C3%28',
  '%FF%FE',
  '%E2%82',
  '%00',
  '=',
  '&&',
  '==',
  '+%',
  'name=%',
);

const formBody = fc
  .array(
    fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.oneof(fieldNames, anyText), anyText)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
      },
      { weight: 1, arbitrary: brokenFragments },
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join('&'));

const jsonValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), anyText, fc.constant(null));

/** JSON text written by hand, so `__proto__` and repeated keys really reach the parser. */
const jsonBody = fc.oneof(
  fc
    .array(fc.tuple(fc.oneof(fieldNames, anyText), jsonValue), { maxLength: 5 })
    .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('', '{', '{"name":', '[]', 'null', '"name"', '{"name":"a",}', '\u0000', '{"name":"\\ud800"}'),
);

const contentType = fc.constantFrom(
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'APPLICATION/X-WWW-FORM-URLENCODED',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json;;;',
  '',
);

const hostileRequest = fc.oneof(
  fc.record({ type: fc.constant('application/x-www-form-urlencoded'), body: formBody }),
  fc.record({ type: fc.constant('application/json'), body: jsonBody }),
  fc.record({ type: contentType, body: fc.oneof(formBody, jsonBody) }),
);

// ---- Properties -------------------------------------------------------------------------------------

describe('hostile bodies', () => {
  let client: Client;
  let fixture: { space: Record<string, unknown>; domain: Record<string, unknown> };
  const accepted = { spaces: 0, domains: 0 };
  const domainNames: string[] = [];

  beforeAll(async () => {
    client = await newClient(gateway);
    const domainName = `fixture-${randomUUID().slice(0, 8)}.example.com`;
    domainNames.push(domainName);
    fixture = {
      space: (await client.post('/api/v1/spaces', { name: 'Fixture', color: '3' })).body.data,
      domain: (await client.post('/api/v1/domains', { name: domainName })).body.data,
    };
  });

  const post = (path: string, { type, body }: { type: string; body: string }) =>
    client.request(path.includes('/api/v1/spaces/') || path.includes('/api/v1/domains/') ? 'PATCH' : 'POST', path, {
      body,
      headers: type === '' ? {} : { 'Content-Type': type },
    });

  it('store a space: never a 500, a documented status, nothing stored when rejected', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (request) => {
        const reply = await post('/api/v1/spaces', request);
        expectAnswer(reply, documented.store);
        if (reply.status === 201) accepted.spaces++;
      }),
      RUNS,
    );
  });

  it('store a domain: never a 500, a documented status, nothing stored when rejected', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (request) => {
        const reply = await post('/api/v1/domains', request);
        expectAnswer(reply, documented.store);
        if (reply.status === 201) {
          accepted.domains++;
          domainNames.push(reply.body.data.name);
        }
      }),
      RUNS,
    );
  });

  it('update a space or a domain: never a 500, a documented status, unchanged when rejected', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('space', 'domain' as const), hostileRequest, async (kind, request) => {
        const current = fixture[kind];
        const reply = await post(`/api/v1/${kind}s/${current.id}`, request);
        expectAnswer(reply, documented.update);
        if (reply.status === 200) fixture[kind] = reply.body.data;
        // Assess: the stored item is exactly what the last successful answer said.
        expect((await client.get(`/api/v1/${kind}s/${current.id}`)).body.data).toEqual(fixture[kind]);
      }),
      { numRuns: 30 },
    );
  });

  afterAll(async () => {
    // Assess: only accepted stores added anything; the data is consistent.
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(1 + accepted.spaces);
    expect((await client.get('/api/v1/domains')).body.meta.total).toBe(1 + accepted.domains);
    await expectConsistent(client.owner, { domainNames });
  });
});

describe('hostile query strings', () => {
  const names = [
    'Alpha',
    'alpha beta',
    'Ω Omega',
    'a:b',
    '#hash',
    'paren)',
    'x%y',
    'Ünïcode',
    '50% off',
    'under_score',
  ];
  let client: Client;

  beforeAll(async () => {
    client = await newClient(gateway);
    for (const name of names) await client.post('/api/v1/spaces', { name });
  });
  afterAll(() => expectConsistent(client.owner));

  const queryKeys = fc.constantFrom(
    'search',
    'search_by',
    'sort_by',
    'sort',
    'per_page',
    'page',
    'search[]',
    'page[]',
    'owner',
    'ownerId',
    '__proto__',
    'constructor',
  );
  const queryValues = fc.oneof(
    anyText,
    fc.constantFrom('asc', 'desc', 'name', 'id', '10', '25', '1000', '0', '-1', '1.5', '99999999999999999999'),
  );
  const rawQuery = fc
    .array(
      fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .tuple(fc.oneof(queryKeys, anyText), queryValues)
            .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
        },
        { weight: 1, arbitrary: brokenFragments },
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join('&'));

  it('a list answers 200 with a valid envelope whatever the query (invalid values fall back)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('spaces', 'domains'), rawQuery, async (collection, query) => {
        const reply = await send(`${gateway.url}/api/v1/${collection}?${query}`, 'GET', {
          headers: { Authorization: `Bearer ${client.key}`, Accept: 'application/json' },
        });
        expectAnswer(reply, [200]);
        expect([10, 25, 50, 100]).toContain(reply.body.meta.per_page);
        expect(reply.body.data.length).toBeLessThanOrEqual(reply.body.meta.per_page);
      }),
      RUNS,
    );
  });

  it('a cursor that is not one the API issued is a 422 on cursor, whatever it holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(anyText, brokenFragments).filter((cursor) => cursor.trim() !== ''),
        async (cursor) => {
          const reply = await client.get('/api/v1/spaces', { cursor });
          expectAnswer(reply, [422]);
          expect(Object.keys(reply.body.errors)).toEqual(['cursor']);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('search is a plain substring: DynamoDB expression syntax in it is inert', async () => {
    const injection = fc.constantFrom(
      ':search',
      ':pk',
      '#fold',
      '#pk',
      ')',
      '(',
      ') OR (1=1',
      'contains(#fold, :search)',
      ':x',
      '#n',
      "'",
      '"',
      '\\',
      '%',
      '*',
      'a:b',
      '#hash',
      'paren)',
      'x%y',
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(injection, fc.string({ maxLength: 6 }), fc.constantFrom(...names)), async (search) => {
        const reply = await client.get('/api/v1/spaces', { search, per_page: 100, sort: 'asc' });
        expectAnswer(reply, [200]);
        const wanted = foldName(search.trim());
        const expected = names.filter((name) => foldName(name).includes(wanted));
        expect(reply.body.meta.total).toBe(expected.length);
        expect(reply.body.data.map((space: { name: string }) => space.name).sort()).toEqual([...expected].sort());
      }),
      RUNS,
    );
  });
});

describe('hostile path ids', () => {
  it('any id that is not one of the owner’s is a 404 JSON, for show, update and delete', async () => {
    // Prepare: a fresh owner has no items, so every id is someone else's or nobody's.
    const client = await newClient(gateway);
    const other = await newClient(gateway);
    const theirs = (await other.post('/api/v1/spaces', { name: 'Not yours' })).body.data.id;
    const id = fc.oneof(
      fc.constantFrom(
        '0',
        '-1',
        '01',
        '1.0',
        '1e3',
        '0x1',
        ' 1',
        '1 ',
        '１',
        '%00',
        '%2F',
        '%',
        '%zz',
        'null',
        String(theirs),
        '9'.repeat(30),
        '1;DROP',
        '..%2F1',
      ),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
      fc.bigInt({ min: 1n, max: 10n ** 20n }).map(String),
    );
    const method = fc.constantFrom('GET', 'PATCH', 'PUT', 'DELETE');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('spaces', 'domains'), id, method, async (collection, rawId, verb) => {
        const reply = await client.request(
          verb,
          `/api/v1/${collection}/${rawId}`,
          verb === 'GET' || verb === 'DELETE' ? {} : { form: { color: '2' } },
        );
        expectAnswer(reply, [404]);
        expect(reply.body).toEqual(NOT_FOUND);
      }),
      { numRuns: 60 },
    );
    // Assess: the other owner's space was not touched.
    expect((await other.get(`/api/v1/spaces/${theirs}`)).body.data).toMatchObject({ name: 'Not yours', color: 1 });
  });
});

describe('hostile headers', () => {
  it('odd header values never break a list or a store', async () => {
    // Prepare
    const client = await newClient(gateway);
    const printable = fc.string({
      unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
      maxLength: 200,
    });
    const headerName = fc.constantFrom(
      'X-Forwarded-Proto',
      'x-forwarded-proto',
      'X-Forwarded-For',
      'X-Amzn-Trace-Id',
      'Accept',
      'Accept-Language',
      'Accept-Encoding',
      'Origin',
      'Referer',
      'X-Owner-Id',
      'Cookie',
      'X-Request-Id',
    );
    const headers = fc.dictionary(headerName, printable, { maxKeys: 4 });
    let stored = 0;
    // Act
    await fc.assert(
      fc.asyncProperty(headers, fc.boolean(), async (extra, store) => {
        const reply = store
          ? await client.request('POST', '/api/v1/spaces', {
              form: { name: `Header ${randomUUID().slice(0, 8)}` },
              headers: extra,
            })
          : await client.request('GET', '/api/v1/spaces', { headers: extra });
        // Assess: answered, or 406 for an Accept that excludes JSON (an odd one that names no media range: answered).
        const accept = Object.entries(extra).find(([name]) => name.toLowerCase() === 'accept')?.[1];
        if (!acceptsJson(accept)) return expectAnswer(reply, [406]);
        expectAnswer(reply, store ? [201] : [200]);
        if (store) stored++;
        if (!store)
          for (const link of Object.values(reply.body.links)) if (link) expect(String(link)).toMatch(/^https?:\/\//);
      }),
      { numRuns: 30 },
    );
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(stored);
  });
});

describe('pinned answers', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClient(gateway);
  });
  afterAll(async () => {
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(0);
    await expectConsistent(client.owner);
  });

  const LIST = 'The name field must be a single value, not a list.';
  const STRING = 'The name field must be a string.';

  it.each([
    ['name[]=x (form array)', 'name%5B%5D=x', LIST],
    ['name[]=x&name[]=y', 'name[]=x&name[]=y', LIST],
    ['name[a]=x (form object)', 'name[a]=x', LIST],
    ['name=a&name=b (repeated key)', 'name=a&name=b', LIST],
    ['name=a&name=a (repeated, same value)', 'name=a&name=a', LIST],
    ['a NUL byte in the name', 'name=a%00b', 'The name field must not contain control characters.'],
  ])('form %s → 422 with a clear message', async (_, body, message) => {
    // Act
    const reply = await client.request('POST', '/api/v1/spaces', {
      body,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expectErrorContract(reply, 422);
    expect(reply.body).toEqual({ message, errors: { name: [message] }, status: 422 });
  });

  it.each([
    ['an array', { name: ['x'] }, LIST],
    ['a number', { name: 123 }, STRING],
    ['a nested object', { name: { $ne: '' } }, STRING],
    ['a boolean', { name: true }, STRING],
    ['null', { name: null }, 'The name field is required.'],
  ])('JSON name as %s → 422 with a clear message', async (_, json, message) => {
    // Act
    const reply = await client.request('POST', '/api/v1/spaces', {
      body: JSON.stringify(json),
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expectErrorContract(reply, 422);
    expect(reply.body).toEqual({ message, errors: { name: [message] }, status: 422 });
  });

  it.each([
    ['__proto__', '{"__proto__":{"name":"Injected"}}'],
    ['constructor', '{"constructor":{"name":"Injected"}}'],
  ])('JSON with only %s → 422 naming it as a field not allowed, and the name as missing', async (field, text) => {
    // Act: JSON text written by hand, so the key really reaches the parser.
    const reply = await client.request('POST', '/api/v1/spaces', {
      body: text,
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expectErrorContract(reply, 422);
    expect(reply.body.errors).toEqual({
      [field]: [`The ${field} field is not allowed.`],
      name: ['The name field is required.'],
    });
  });

  it.each([
    [
      'a broken percent-escape',
      'name=%zz',
      'application/x-www-form-urlencoded',
      'The request body is not valid form data.',
    ],
    [
      'percent-encoded invalid UTF-8',
      'name=%C3%28',
      'application/x-www-form-urlencoded',
      'The request body is not valid form data.',
    ],
    ['malformed JSON', '{"name":', 'application/json', 'The request body is not valid JSON.'],
    ['a JSON array', '["name"]', 'application/json', 'The request body must be a JSON object.'],
  ])('%s → 400', async (_, body, type, message) => {
    // Act
    const reply = await client.request('POST', '/api/v1/spaces', { body, headers: { 'Content-Type': type } });
    // Assess
    expectErrorContract(reply, 400);
    expect(reply.body).toEqual({ message, status: 400 });
  });

  it('raw invalid UTF-8 bytes in a body are never a 500', async () => {
    // Act
    const replies = await Promise.all(
      ['application/x-www-form-urlencoded', 'application/json'].map(async (type) => {
        const body = Buffer.concat([
          Buffer.from(type.endsWith('json') ? '{"name":"a' : 'name=a'),
          Buffer.from([0xc3, 0x28, 0xff]),
          Buffer.from(type.endsWith('json') ? '"}' : ''),
        ]);
        const response = await fetch(`${gateway.url}/api/v1/spaces`, {
          method: 'POST',
          body,
          headers: { 'Content-Type': type, Authorization: `Bearer ${client.key}` },
        });
        return {
          status: response.status,
          type: response.headers.get('content-type'),
          body: (await response.json()) as { data: { id: number } },
        };
      }),
    );
    // Assess: the gateway hands the handler text (invalid bytes become U+FFFD), like API Gateway does.
    for (const reply of replies) {
      expect(reply.status).not.toBe(500);
      expect(reply.type).toBe('application/json');
      if (reply.status === 201) await client.delete(`/api/v1/spaces/${reply.body.data.id}`);
    }
  });

  it('a client-sent X-Forwarded-Proto cannot change the scheme of the list links', async () => {
    // Act: node:http keeps the header name as written, so the lowercase spelling reaches the gateway.
    const text = await new Promise<string>((resolve, reject) => {
      const headers = { 'x-forwarded-proto': 'javascript', authorization: `Bearer ${client.key}` };
      const req = httpRequest(`${gateway.url}/api/v1/spaces`, { headers }, (res) => {
        let data = '';
        res.on('data', (chunk) => {
          data += chunk;
        });
        res.on('end', () => resolve(data));
      });
      req.on('error', reject);
      req.end();
    });
    // Assess
    const { links } = JSON.parse(text);
    expect(links.first).toMatch(/^http:\/\/127\.0\.0\.1:/);
  });

  it('repeated query keys: the last value wins; bracketed keys are not the parameter', async () => {
    // Act
    const repeated = await client.get('/api/v1/spaces?sort=asc&sort=desc&per_page=25&per_page=50');
    const bracketed = await client.get('/api/v1/spaces?per_page[]=25&sort[]=asc');
    // Assess
    expect(repeated.status).toBe(200);
    expect(repeated.body.meta.per_page).toBe(50);
    expect(repeated.body.links.first).toContain('sort=desc');
    expect(bracketed.body.meta.per_page).toBe(10);
    expect(bracketed.body.links.first).toContain('sort=desc');
  });
});
