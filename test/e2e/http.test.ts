import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { createApiKey, revokeApiKey } from '#lib/auth/data/key-admin.ts';
import { generateApiKey } from '#lib/auth/rules/api-key.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { db } from '#test/support/database.ts';
import { startTestGateway } from '#test/support/http.ts';
import { keyClient, NOT_FOUND, newClient, sendJson, UNAUTHENTICATED } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const client = () => newClient(gateway);
const resources = [
  { path: '/api/v1/spaces', valid: { name: 'Valid' } },
  { path: '/api/v1/domains', valid: { name: 'valid.example.com' } },
];
/** Every operation of the contract, with a body where it takes one. */
const operations = resources.flatMap(({ path, valid }) => [
  { method: 'GET', path },
  { method: 'POST', path, form: valid },
  { method: 'GET', path: `${path}/1` },
  { method: 'PUT', path: `${path}/1`, form: {} },
  { method: 'PATCH', path: `${path}/1`, form: {} },
  { method: 'DELETE', path: `${path}/1` },
]);

describe.concurrent('authentication (401)', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['another scheme', `Basic ${generateApiKey()}`],
    ['no scheme', generateApiKey()],
    ['a malformed key', 'Bearer dsk_short'],
    ['a key without its prefix', `Bearer ${generateApiKey().slice(4)}`],
    ['an unknown key', `Bearer ${generateApiKey()}`],
  ])('refuses every operation with %s', async (_, authorization) => {
    // Act
    const replies = await Promise.all(
      operations.map(({ method, path, form }) =>
        sendJson(`${gateway.url}${path}`, method, {
          headers: {
            Accept: 'application/json',
            ...(authorization === undefined ? {} : { Authorization: authorization }),
            ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: form ? new URLSearchParams(form).toString() : undefined,
        }),
      ),
    );
    // Assess
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(UNAUTHENTICATED);
    }
  });

  it('accepts the scheme in any case', async () => {
    // Prepare
    const { key } = await createApiKey(db, `owner-${Date.now()}-case`, 'test');
    // Act
    const reply = await sendJson(`${gateway.url}/api/v1/spaces`, 'GET', {
      headers: { Authorization: `bearer ${key}` },
    });
    // Assess
    expect(reply.status).toBe(200);
  });

  it('refuses a key once it is revoked, on every operation', async () => {
    // Prepare
    const owner = `owner-${Date.now()}-revoked`;
    const { key, record } = await createApiKey(db, owner, 'to revoke');
    const api = keyClient(gateway, key);
    expect((await api.post('/api/v1/spaces', { name: 'Before' })).status).toBe(201);
    // Act
    await revokeApiKey(db, record.prefix);
    const replies = await Promise.all(
      operations.map(({ method, path, form }) => api.request(method, path, form ? { form } : {})),
    );
    // Assess
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(UNAUTHENTICATED);
    }
  });

  it('keeps another key of the same owner working after one is revoked', async () => {
    // Prepare
    const owner = `owner-${Date.now()}-two-keys`;
    const [first, second] = await Promise.all([createApiKey(db, owner, 'a'), createApiKey(db, owner, 'b')]);
    await keyClient(gateway, first.key).post('/api/v1/spaces', { name: 'Shared' });
    // Act
    await revokeApiKey(db, first.record.prefix);
    const reply = await keyClient(gateway, second.key).get('/api/v1/spaces');
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((space: { name: string }) => space.name)).toEqual(['Shared']);
  });
});

describe.concurrent('ids and routes (404)', () => {
  const badIds = [
    'abc',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '007',
    '%201',
    '99999999999999999999',
    '999999999999999',
    '12abc',
  ];

  it.each(resources)(
    '$path answers 404 for ids that are unknown or not positive decimal integers',
    async ({ path }) => {
      // Prepare
      const api = await client();
      await api.post(path, resources[0]?.path === path ? { name: 'Exists' } : { name: 'exists.example.com' });
      // Act
      const replies = await Promise.all(
        [...badIds, '2', '123456'].flatMap((id) => [
          api.get(`${path}/${id}`),
          api.put(`${path}/${id}`, { color: '2' }),
          api.patch(`${path}/${id}`, { index_page: '' }),
          api.delete(`${path}/${id}`),
        ]),
      );
      // Assess
      for (const reply of replies) {
        expect(reply.status).toBe(404);
        expect(reply.body).toEqual(NOT_FOUND);
      }
      expect((await api.get(`${path}/1`)).status).toBe(200);
    },
  );

  it.each([
    ['GET', '/'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/users'],
    ['GET', '/api/v2/spaces'],
    ['GET', '/api/v1/spaces/'],
    ['GET', '/api/v1/spaces/1/members'],
    // A method a path does not have is a 405, OPTIONS a preflight (under /api/v1, on any path: so that a page
    // reads this 404): test/e2e/http-conventions.test.ts.
    ['DELETE', '/api/v1/nothing'],
    ['OPTIONS', '/api/v2/spaces'],
  ])('answers 404 JSON for %s %s, with or without a key', async (method, path) => {
    // Prepare
    const api = await client();
    // Act
    const withKey = await api.request(method, path);
    const withoutKey = await sendJson(`${gateway.url}${path}`, method);
    // Assess
    expect(withKey.status).toBe(404);
    expect(withKey.body).toEqual(NOT_FOUND);
    expect(withoutKey.status).toBe(404);
    expect(withoutKey.body).toEqual(NOT_FOUND);
  });
});

describe.concurrent('request bodies', () => {
  const UNSUPPORTED = {
    message: 'The request body must be application/x-www-form-urlencoded or application/json.',
    status: 415,
  };

  it.each(['text/plain', 'multipart/form-data; boundary=x', 'application/xml', undefined])(
    'answers 415 for a body sent as %s, on store and update',
    async (contentType) => {
      // Prepare
      const api = await client();
      await api.post('/api/v1/spaces', { name: 'Exists' });
      const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
      // Act
      const replies = await Promise.all([
        api.request('POST', '/api/v1/spaces', { body: 'name=Plain', headers }),
        api.request('PUT', '/api/v1/spaces/1', { body: 'name=Plain', headers }),
        api.request('PATCH', '/api/v1/spaces/1', { body: 'name=Plain', headers }),
        api.request('POST', '/api/v1/domains', { body: 'name=plain.example.com', headers }),
      ]);
      // Assess
      for (const reply of replies) {
        expect(reply.status).toBe(415);
        expect(reply.body).toEqual(UNSUPPORTED);
      }
      expect((await api.get('/api/v1/spaces/1')).body.data.name).toBe('Exists');
    },
  );

  it('accepts media types with parameters and in any case', async () => {
    // Prepare
    const api = await client();
    // Act
    const form = await api.request('POST', '/api/v1/spaces', {
      body: 'name=Form',
      headers: { 'Content-Type': 'Application/X-WWW-Form-URLEncoded; charset=UTF-8' },
    });
    const json = await api.request('POST', '/api/v1/spaces', {
      body: '{"name":"Json"}',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    // Assess
    expect(form.status).toBe(201);
    expect(json.status).toBe(201);
  });

  it('answers 413 for a body over 64 KiB, and accepts 64 KiB', async () => {
    // Prepare
    const api = await client();
    const fits = `name=${'a'.repeat(MAX_BODY_BYTES - 5)}`;
    // Act
    const over = await api.request('POST', '/api/v1/spaces', {
      body: `${fits}a`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const overJson = await api.request('PATCH', '/api/v1/domains/1', {
      json: { index_page: 'x'.repeat(MAX_BODY_BYTES) },
    });
    const exactly = await api.request('POST', '/api/v1/spaces', {
      body: fits,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ message: 'The request body must not be larger than 64 KiB.', status: 413 });
    expect(overJson.status).toBe(413);
    expect(exactly.status).toBe(422);
    expect(exactly.body.errors).toEqual({ name: ['The name field must not be greater than 32 characters.'] });
  });

  it.each([
    ['malformed JSON', '{"name": "x"', 'The request body is not valid JSON.'],
    ['truncated JSON', '{', 'The request body is not valid JSON.'],
    ['a JSON array', '[{"name":"x"}]', 'The request body must be a JSON object.'],
    ['a JSON string', '"x"', 'The request body must be a JSON object.'],
  ])('answers 400 for %s', async (_, body, message) => {
    // Prepare
    const api = await client();
    await api.post('/api/v1/domains', { name: `bad-json-${Math.random().toString(36).slice(2)}.example.com` });
    // Act
    const replies = await Promise.all([
      api.request('POST', '/api/v1/spaces', { body, headers: { 'Content-Type': 'application/json' } }),
      api.request('PUT', '/api/v1/domains/1', { body, headers: { 'Content-Type': 'application/json' } }),
    ]);
    // Assess
    for (const reply of replies) {
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ message, status: 400 });
    }
  });

  it('answers 400 for a form body with a broken percent-escape, storing nothing', async () => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.request('POST', '/api/v1/spaces', {
      body: 'name=%E0%A4%A',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: 'The request body is not valid form data.', status: 400 });
    expect((await api.get('/api/v1/spaces')).body.meta.total).toBe(0);
  });

  it.each([
    [
      'a JSON body',
      'application/json',
      (bytes: Buffer) => Buffer.concat([Buffer.from('{"name":"Caf'), bytes, Buffer.from('"}')]),
    ],
    [
      'a form body',
      'application/x-www-form-urlencoded',
      (bytes: Buffer) => Buffer.concat([Buffer.from('name=Caf'), bytes]),
    ],
  ])(
    'answers 400 for raw bytes that are not UTF-8 in %s, storing nothing (as for the same bytes percent-encoded)',
    async (_, contentType, bodyWith) => {
      // Prepare: a stray continuation byte, a truncated sequence, an encoded surrogate, an overlong "/"
      const api = await client();
      const invalid = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]].map((bytes) => Buffer.from(bytes));
      // Act
      const replies = await Promise.all(
        invalid.map((bytes) =>
          api.request('POST', '/api/v1/spaces', { body: bodyWith(bytes), headers: { 'Content-Type': contentType } }),
        ),
      );
      const valid = await api.request('POST', '/api/v1/spaces', {
        body: bodyWith(Buffer.from('é')),
        headers: { 'Content-Type': `${contentType}; charset=UTF-8` },
      });
      // Assess
      for (const reply of replies) {
        expect(reply.status, reply.text).toBe(400);
        expect(reply.body).toEqual({ message: 'The request body is not valid UTF-8.', status: 400 });
      }
      expect(valid.status, valid.text).toBe(201);
      expect(valid.body.data.name).toBe('Café');
      expect((await api.get('/api/v1/spaces')).body.meta.total).toBe(1);
    },
  );

  it('never answers 500 to odd bodies', async () => {
    // Prepare
    const api = await client();
    const bodies = [
      { json: { name: { $gt: '' } } },
      { json: { name: ['a'] } },
      { json: { name: null, color: null } },
      { body: '{"__proto__":{"name":"x"}}', headers: { 'Content-Type': 'application/json' } },
      { body: '%%%', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      { body: 'name=%E0%A4%A', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      { body: 'name[a][b]=x&color[]=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
      { body: '\u0000', headers: { 'Content-Type': 'application/json' } },
      { body: '{"name":"\\ud800","color":1}', headers: { 'Content-Type': 'application/json' } },
      { body: '{"name":"a\\udc00b","color":1}', headers: { 'Content-Type': 'application/json' } },
      { body: '{"name":"x","color":1e400}', headers: { 'Content-Type': 'application/json' } },
      { json: { name: 'y', color: '99999999999999999999999' } },
    ];
    // Act
    const replies = await Promise.all(
      ['/api/v1/spaces', '/api/v1/domains'].flatMap((path) =>
        bodies.map((options) => api.request('POST', path, options)),
      ),
    );
    // Assess
    for (const reply of replies) {
      expect([400, 422]).toContain(reply.status);
      expect(reply.body).toMatchObject({ message: expect.any(String), status: reply.status });
    }
  });
});

describe.concurrent('owner isolation', () => {
  it.each(resources)('$path: another owner can neither see, change nor delete an item', async ({ path }) => {
    // Prepare
    const [alice, bob] = await Promise.all([client(), client()]);
    const spaces = path.endsWith('spaces');
    const aliceItem = spaces ? { name: 'Alice only' } : { name: `alice-${Date.now()}.example.com` };
    const { data: stored } = (await alice.post(path, aliceItem)).body;
    const { data: second } = (
      await alice.post(path, spaces ? { name: 'Alice two' } : { name: `alice2-${Date.now()}.example.com` })
    ).body;
    // Act
    const attempts = await Promise.all(
      [stored.id, second.id].flatMap((id) => [
        bob.get(`${path}/${id}`),
        bob.put(
          `${path}/${id}`,
          spaces ? { name: 'Bob was here', color: '6' } : { index_page: 'https://bob.example.org/' },
        ),
        bob.patch(`${path}/${id}`, spaces ? { color: '6' } : { index_page: '' }),
        bob.delete(`${path}/${id}`),
      ]),
    );
    const bobList = await bob.get(path);
    const bobSearch = await bob.get(path, { search: 'alice', sort_by: 'name' });
    // Assess
    for (const reply of attempts) {
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual(NOT_FOUND);
    }
    expect(bobList.body.data).toEqual([]);
    expect(bobList.body.meta.total).toBe(0);
    expect(bobSearch.body.data).toEqual([]);
    expect((await alice.get(`${path}/${stored.id}`)).body.data).toEqual(stored);
    expect((await alice.get(path)).body.meta.total).toBe(2);
  });

  it('gives each owner ids of its own, and changes only the caller’s item with that id', async () => {
    // Prepare
    const [alice, bob] = await Promise.all([client(), client()]);
    await alice.post('/api/v1/spaces', { name: 'Same', color: '2' });
    const bobStored = await bob.post('/api/v1/spaces', { name: 'Same', color: '3' });
    // Act
    const bobUpdate = await bob.patch('/api/v1/spaces/1', { color: '5' });
    const bobDelete = await bob.delete('/api/v1/spaces/1');
    // Assess
    expect(bobStored.body.data.id).toBe(1);
    expect(bobUpdate.body.data).toMatchObject({ id: 1, name: 'Same', color: 5 });
    expect(bobDelete.status).toBe(200);
    expect((await alice.get('/api/v1/spaces/1')).body.data).toMatchObject({ name: 'Same', color: 2 });
  });
});

/** Sends bytes as they are (no client library to percent-encode them) and returns the raw answer. */
function sendRaw(url: string, request: Buffer): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.end(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe.concurrent('requests Node’s HTTP parser refuses', () => {
  it.each([
    ['raw UTF-8 in the query string', Buffer.from('GET /api/v1/spaces?search=bücher HTTP/1.1\r\nHost: x\r\n\r\n')],
    ['raw UTF-8 in the path', Buffer.from('GET /api/v1/späces HTTP/1.1\r\nHost: x\r\n\r\n')],
    ['a malformed request line', Buffer.from('GET\r\n\r\n')],
  ])('answers %s with the JSON 400', async (_, request) => {
    // Act
    const answer = await sendRaw(gateway.url, request);
    // Assess
    const [head = '', body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/i);
    expect(JSON.parse(body ?? '')).toEqual({ message: 'Bad Request.', status: 400 });
  });
});

describe("the README's errors table, for paths and methods", () => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const row = (status: number) => readme.split('\n').find((line) => line.startsWith(`| ${status} `)) ?? '';

  it('says what an unknown path, another method on a known path and a method HTTP does not know answer', async () => {
    // Act
    const [unknownPath, otherMethod, unknownMethod] = await Promise.all([
      sendJson(`${gateway.url}/api/v1/nothing`, 'GET'),
      sendJson(`${gateway.url}/api/v1/spaces`, 'DELETE'),
      sendRaw(gateway.url, Buffer.from('BREW /api/v1/spaces HTTP/1.1\r\nHost: x\r\n\r\n')),
    ]);
    // Assess: what each answers...
    expect(unknownPath.status).toBe(404);
    expect(otherMethod.status).toBe(405);
    expect(otherMethod.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(unknownMethod).toMatch(/^HTTP\/1\.1 400 /);
    // ...is what the table says
    expect(row(404)).toContain('unknown path');
    expect(row(404)).not.toMatch(/method/);
    expect(row(405)).toContain('a path the API has, with a method it does not have');
    expect(row(400)).toContain('a method HTTP does not know');
  });
});
