/**
 * Strict JSON input, over the local gateway: a JSON body's fields have their JSON types, a field the body does
 * not list is refused by name, and a resource's own fields cannot be written; a form body keeps its lenient
 * rules; names refuse invisible and bidi control characters whatever the encoding. A refused request changes
 * nothing. Every answer is checked against the OpenAPI document by the shared client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import type { Client } from '#test/support/http.ts';
import { startTestGateway } from '#test/support/http.ts';
import { invalid, newClient } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const SPACES = '/api/v1/spaces';
const DOMAINS = '/api/v1/domains';
const INVISIBLE =
  'The name field must not contain invisible, bidirectional control, private-use or blank-looking characters.';
const INTEGER = 'The color field must be an integer.';

const json = (api: Client, method: string, path: string, body: unknown) => api.request(method, path, { json: body });

/** The owner's items, to show that a refused request stored or changed nothing. */
const listed = async (api: Client, path: string) => (await api.get(path, { per_page: 100 })).body.data;

describe.concurrent('strict JSON: types', () => {
  it.each([
    ['digits in a string', '3'],
    ['null', null],
    ['an empty string', ''],
    ['a boolean', true],
  ])('refuses a JSON color that is %s, naming the field, and stores nothing', async (_, color) => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await json(api, 'POST', SPACES, { name: 'Team', color });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('color', INTEGER));
    expect(await listed(api, SPACES)).toEqual([]);
  });

  it.each([
    ['a number', 42, 'The name field must be a string.'],
    ['a boolean', false, 'The name field must be a string.'],
    ['null', null, 'The name field is required.'],
    ['a list', ['Team'], 'The name field must be a single value, not a list.'],
  ])('refuses a JSON name that is %s', async (_, name, message) => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await json(api, 'POST', SPACES, { name });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('name', message));
  });

  it('refuses a page that is not a string or null, on store and on update', async () => {
    // Prepare
    const api = await newClient(gateway);
    const stored = await json(api, 'POST', DOMAINS, { name: 'typed.example.com' });
    // Act
    const store = await json(api, 'POST', DOMAINS, { name: 'other.example.com', index_page: 404 });
    const update = await json(api, 'PATCH', `${DOMAINS}/${stored.body.data.id}`, { not_found_page: { url: 'x' } });
    // Assess
    expect(store.body).toEqual(invalid('index_page', 'The index page field must be a string or null.'));
    expect(update.body).toEqual(invalid('not_found_page', 'The not found page field must be a string or null.'));
  });

  it('keeps null meaning "none" for a domain’s pages: it clears them', async () => {
    // Prepare
    const api = await newClient(gateway);
    const stored = await json(api, 'POST', DOMAINS, {
      name: 'clear.example.com',
      index_page: 'https://www.example.com/',
      not_found_page: 'https://www.example.com/404',
    });
    // Act
    const cleared = await json(api, 'PUT', `${DOMAINS}/${stored.body.data.id}`, { index_page: null });
    // Assess
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ index_page: null, not_found_page: 'https://www.example.com/404' });
  });

  it('changes nothing for a client that sends correct JSON', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const stored = await json(api, 'POST', SPACES, { name: ' Json ', color: 4 });
    const updated = await json(api, 'PATCH', `${SPACES}/${stored.body.data.id}`, { color: 6, name: 'Json 2' });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name: 'Json', color: 4 });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Json 2', color: 6 });
  });
});

describe.concurrent('strict JSON: fields', () => {
  it('refuses each unknown field by name, besides the errors of the listed ones', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await json(api, 'POST', SPACES, { colour: 3, owner: 'someone-else' });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      message: 'The colour field is not allowed.',
      errors: {
        colour: ['The colour field is not allowed.'],
        owner: ['The owner field is not allowed.'],
        name: ['The name field is required.'],
      },
      status: 422,
    });
    expect(await listed(api, SPACES)).toEqual([]);
  });

  it('lists at most 20 fields, and says how many more: 4,000 unknown fields make a small 422', async () => {
    // Prepare
    const api = await newClient(gateway);
    const many = Object.fromEntries(Array.from({ length: 4_000 }, (_, index) => [`f${index}`, index]));
    // Act
    const [reply, oneMore] = await Promise.all([
      json(api, 'POST', SPACES, { name: 'Team', ...many }),
      json(api, 'POST', SPACES, Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`g${index}`, 1]))),
    ]);
    // Assess
    expect(reply.status).toBe(422);
    expect(Object.keys(reply.body.errors)).toEqual(Array.from({ length: 20 }, (_, index) => `f${index}`));
    expect(reply.body.message).toBe('The f0 field is not allowed. (and 3980 more fields with errors, not listed)');
    expect(reply.text.length).toBeLessThan(2_000);
    // 21 unknown fields and the missing name: 20 listed, 2 more
    expect(Object.keys(oneMore.body.errors)).toHaveLength(20);
    expect(oneMore.body.message).toBe('The g0 field is not allowed. (and 2 more fields with errors, not listed)');
    expect(await listed(api, SPACES)).toEqual([]);
  });

  it('names a field called __proto__ or constructor like any other (no 500)', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await api.request('POST', SPACES, {
      body: '{"name":"Team","__proto__":{"color":6},"constructor":1}',
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expect(reply.status).toBe(422);
    expect(Object.entries(reply.body.errors)).toEqual([
      ['__proto__', ['The __proto__ field is not allowed.']],
      ['constructor', ['The constructor field is not allowed.']],
    ]);
  });

  it.each(['PATCH', 'PUT'])(
    'refuses a domain’s name on %s: it cannot be changed, and the domain is unchanged',
    async (method) => {
      // Prepare
      const api = await newClient(gateway);
      const stored = await json(api, 'POST', DOMAINS, { name: 'fixed.example.com' });
      const path = `${DOMAINS}/${stored.body.data.id}`;
      // Act
      const reply = await json(api, method, path, {
        name: 'other.example.com',
        index_page: 'https://www.example.com/',
      });
      // Assess
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual(invalid('name', 'The name field cannot be changed.'));
      expect((await api.get(path)).body).toEqual(stored.body);
    },
  );

  it('refuses the fields of a space as a show gave them, sent back on an update', async () => {
    // Prepare
    const api = await newClient(gateway);
    const { data } = (await json(api, 'POST', SPACES, { name: 'Echo', color: 2 })).body;
    // Act
    const reply = await json(api, 'PUT', `${SPACES}/${data.id}`, { ...data, color: 5 });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body.errors).toEqual({
      id: ['The id field cannot be changed.'],
      created_at: ['The created at field cannot be changed.'],
      updated_at: ['The updated at field cannot be changed.'],
    });
    expect((await api.get(`${SPACES}/${data.id}`)).body.data).toEqual(data);
  });
});

describe.concurrent('forms keep their rules', () => {
  it('takes a color in digits, a blank one as the default, and ignores unknown fields', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const digits = await api.post(SPACES, { name: 'Form', color: ' 3 ', colour: '5' });
    const blank = await api.post(SPACES, { name: 'Blank', color: '' });
    // Assess
    expect(digits.status).toBe(201);
    expect(digits.body.data).toMatchObject({ name: 'Form', color: 3 });
    expect(blank.body.data).toMatchObject({ name: 'Blank', color: 1 });
  });

  it('ignores a domain’s name on update, as it always did', async () => {
    // Prepare
    const api = await newClient(gateway);
    const stored = await json(api, 'POST', DOMAINS, { name: 'form.example.com' });
    // Act
    const reply = await api.patch(`${DOMAINS}/${stored.body.data.id}`, {
      name: 'other.example.com',
      not_found_page: 'https://www.example.com/404',
    });
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ name: 'form.example.com', not_found_page: 'https://www.example.com/404' });
  });
});

describe.concurrent('names refuse invisible and bidi control characters, as a form or as JSON', () => {
  it.each([
    ['a zero-width space', 'Mar\u200Bketing'],
    ['a zero-width joiner', 'Mar\u200Dketing'],
    ['a zero-width non-joiner', 'Mar\u200Cketing'],
    ['a word joiner', 'Mar\u2060keting'],
    ['a byte order mark', '\uFEFFMarketing'],
    ['a right-to-left override', 'Invoice \u202Efdp.exe'],
    ['a left-to-right isolate', '\u2066Marketing\u2069'],
    ['a right-to-left mark', 'Marketing\u200F'],
  ])('a space name with %s', async (_, name) => {
    // Prepare
    const api = await newClient(gateway);
    const { data } = (await api.post(SPACES, { name: 'Before' })).body;
    // Act
    const replies = [
      await api.post(SPACES, { name }),
      await json(api, 'POST', SPACES, { name }),
      await api.patch(`${SPACES}/${data.id}`, { name }),
      await json(api, 'PUT', `${SPACES}/${data.id}`, { name }),
    ];
    // Assess
    for (const reply of replies) expect(reply.body).toEqual(invalid('name', INVISIBLE));
    expect(await listed(api, SPACES)).toEqual([data]);
  });

  it.each([
    ['a zero-width space', 'exa\u200Bmple.com'],
    ['a soft hyphen', 'exa\u00ADmple.com'],
    ['a right-to-left override', '\u202Eexample.com'],
  ])('a domain name with %s (IDNA would drop or refuse it without saying why)', async (_, name) => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const replies = [await api.post(DOMAINS, { name }), await json(api, 'POST', DOMAINS, { name })];
    // Assess
    for (const reply of replies) expect(reply.body).toEqual(invalid('name', INVISIBLE));
    expect(await listed(api, DOMAINS)).toEqual([]);
  });
});
