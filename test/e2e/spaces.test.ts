import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { startTestGateway } from '#test/support/http.ts';
import { ISO_UTC, invalid, NOT_FOUND, newClient, TAKEN } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const SPACES = '/api/v1/spaces';
const client = () => newClient(gateway);

describe.concurrent('spaces: store, show, update, delete', () => {
  it('stores a space (201) and shows it (200) in the resource shape', async () => {
    // Prepare
    const api = await client();
    // Act
    const stored = await api.post(SPACES, { name: 'Marketing', color: '3' });
    const shown = await api.get(`${SPACES}/${stored.body.data.id}`);
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body).toEqual({
      data: {
        id: 1,
        name: 'Marketing',
        color: 3,
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.any(String),
      },
    });
    expect(stored.body.data.updated_at).toBe(stored.body.data.created_at);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(stored.body);
  });

  it('trims the name and defaults the color to 1', async () => {
    // Prepare
    const api = await client();
    // Act
    const stored = await api.post(SPACES, { name: '  Ops  ' });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name: 'Ops', color: 1 });
  });

  it('accepts JSON bodies with JSON types, and refuses a number sent as a string or a field not listed', async () => {
    // Prepare
    const api = await client();
    // Act
    const stored = await api.request('POST', SPACES, { json: { name: 'Json', color: 4 } });
    const asString = await api.request('POST', SPACES, { json: { name: 'Json 2', color: '5' } });
    const unknown = await api.request('POST', SPACES, { json: { name: 'Json 3', color: 1, ignored: true } });
    const updated = await api.request('PATCH', `${SPACES}/${stored.body.data.id}`, { json: { color: 6 } });
    // Assess: strict JSON (docs/api.md, "Strict JSON input"); the same as a form is accepted as before.
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name: 'Json', color: 4 });
    expect(asString.status).toBe(422);
    expect(asString.body.errors).toEqual({ color: ['The color field must be an integer.'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ ignored: ['The ignored field is not allowed.'] });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Json', color: 6 });
  });

  it('ignores fields that are not listed', async () => {
    // Prepare
    const api = await client();
    // Act
    const stored = await api.post(SPACES, { name: 'Ignore', id: '99', created_at: '2000-01-01T00:00:00.000Z' });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data.id).toBe(1);
    expect(stored.body.data.created_at).not.toBe('2000-01-01T00:00:00.000Z');
  });

  it.each(['PUT', 'PATCH'])('%s updates partially: absent fields stay unchanged', async (method) => {
    // Prepare
    const api = await client();
    const { data: space } = (await api.post(SPACES, { name: 'Design', color: '2' })).body;
    const path = `${SPACES}/${space.id}`;
    // Act
    const colorOnly = await api.request(method, path, { form: { color: '5' } });
    const nameOnly = await api.request(method, path, { form: { name: ' Product ' } });
    const nothing = await api.request(method, path, { form: {} });
    const shown = await api.get(path);
    // Assess
    expect(colorOnly.status).toBe(200);
    expect(colorOnly.body.data).toMatchObject({ id: space.id, name: 'Design', color: 5 });
    expect(nameOnly.body.data).toMatchObject({ id: space.id, name: 'Product', color: 5 });
    expect(nothing.status).toBe(200);
    expect(nothing.body.data).toEqual(nameOnly.body.data);
    expect(shown.body.data).toEqual(nameOnly.body.data);
    expect(shown.body.data.created_at).toBe(space.created_at);
    expect(shown.body.data.updated_at >= space.updated_at).toBe(true);
    expect(shown.body.data.updated_at).toMatch(ISO_UTC);
  });

  it.each<[string, { form?: Record<string, string>; json?: unknown }]>([
    ['a form with an empty color', { form: { name: 'Renamed', color: '' } }],
    ['JSON without a color', { json: { name: 'Renamed' } }],
  ])('renames with %s: keeps the color and answers it', async (_, body) => {
    // Prepare
    const api = await client();
    const { data: space } = (await api.post(SPACES, { name: 'Before', color: '4' })).body;
    const path = `${SPACES}/${space.id}`;
    // Act
    const renamed = await api.request('PATCH', path, body);
    const shown = await api.get(path);
    // Assess
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ id: space.id, name: 'Renamed', color: 4 });
    expect(renamed.body).toEqual(shown.body);
  });

  it('deletes a space (200) and then answers 404 for it', async () => {
    // Prepare
    const api = await client();
    const { data: space } = (await api.post(SPACES, { name: 'Temp' })).body;
    const path = `${SPACES}/${space.id}`;
    // Act
    const deleted = await api.delete(path);
    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: space.id, object: 'space', deleted: true, status: 200 });
    expect((await api.get(path)).body).toEqual(NOT_FOUND);
    expect((await api.delete(path)).status).toBe(404);
    expect((await api.patch(path, { color: '2' })).status).toBe(404);
    expect((await api.get(SPACES)).body.meta.total).toBe(0);
  });

  it('answers 404, not 422, to an invalid update of an id the owner does not have', async () => {
    // Prepare
    const owner = await client();
    const other = await client();
    const { data: space } = (await owner.post(SPACES, { name: 'Mine' })).body;
    // Act
    const unknown = await owner.patch(`${SPACES}/999`, { name: '', color: '9' });
    const foreign = await other.put(`${SPACES}/${space.id}`, { name: '', color: '9' });
    const own = await owner.patch(`${SPACES}/${space.id}`, { name: '', color: '9' });
    // Assess
    expect(unknown.body).toEqual(NOT_FOUND);
    expect(foreign.body).toEqual(NOT_FOUND);
    expect(own.status).toBe(422);
  });

  it('never reuses a deleted id', async () => {
    // Prepare
    const api = await client();
    for (const name of ['One', 'Two', 'Three']) await api.post(SPACES, { name });
    await api.delete(`${SPACES}/3`);
    // Act
    const next = await api.post(SPACES, { name: 'Three' });
    // Assess
    expect(next.status).toBe(201);
    expect(next.body.data.id).toBe(4);
    expect((await api.get(`${SPACES}/3`)).status).toBe(404);
  });
});

describe.concurrent('spaces: name uniqueness', () => {
  it('refuses a name the owner already has, in any case', async () => {
    // Prepare
    const api = await client();
    await api.post(SPACES, { name: 'Marketing' });
    // Act
    const same = await api.post(SPACES, { name: 'Marketing' });
    const otherCase = await api.post(SPACES, { name: ' mARKETING ' });
    // Assess
    expect(same.status).toBe(422);
    expect(same.body).toEqual(invalid('name', TAKEN));
    expect(otherCase.body).toEqual(invalid('name', TAKEN));
  });

  it('lets another owner use the same name', async () => {
    // Prepare
    const [alice, bob] = await Promise.all([client(), client()]);
    await alice.post(SPACES, { name: 'Shared' });
    // Act
    const stored = await bob.post(SPACES, { name: 'shared' });
    // Assess
    expect(stored.status).toBe(201);
  });

  it.each(['PUT', 'PATCH'])('%s renames to its own name in another case', async (method) => {
    // Prepare
    const api = await client();
    const { data: space } = (await api.post(SPACES, { name: 'sales' })).body;
    // Act
    const renamed = await api.request(method, `${SPACES}/${space.id}`, { form: { name: 'SALES' } });
    // Assess
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('SALES');
  });

  it.each(['PUT', 'PATCH'])('%s refuses renaming to another space’s name, and changes nothing', async (method) => {
    // Prepare
    const api = await client();
    const { data: space } = (await api.post(SPACES, { name: 'Alpha', color: '2' })).body;
    await api.post(SPACES, { name: 'Beta' });
    // Act
    const renamed = await api.request(method, `${SPACES}/${space.id}`, { form: { name: 'BETA', color: '6' } });
    // Assess
    expect(renamed.status).toBe(422);
    expect(renamed.body).toEqual(invalid('name', TAKEN));
    expect((await api.get(`${SPACES}/${space.id}`)).body.data).toMatchObject({ name: 'Alpha', color: 2 });
  });

  it('releases a name on rename and on delete', async () => {
    // Prepare
    const api = await client();
    const { data: first } = (await api.post(SPACES, { name: 'Old' })).body;
    const { data: second } = (await api.post(SPACES, { name: 'Gone' })).body;
    await api.patch(`${SPACES}/${first.id}`, { name: 'New' });
    await api.delete(`${SPACES}/${second.id}`);
    // Act
    const reuseOld = await api.post(SPACES, { name: 'old' });
    const reuseGone = await api.post(SPACES, { name: 'GONE' });
    const takeNew = await api.post(SPACES, { name: 'NEW' });
    // Assess
    expect(reuseOld.status).toBe(201);
    expect(reuseGone.status).toBe(201);
    expect(takeNew.body).toEqual(invalid('name', TAKEN));
  });

  it('lets exactly one of 10 concurrent stores of one name win', async () => {
    // Prepare
    const api = await client();
    const names = [
      'Launch',
      'launch',
      'LAUNCH',
      'Launch ',
      ' launch',
      'LaUnCh',
      'lAUNCH',
      'Launch',
      'launch',
      'LAUNCH',
    ];
    // Act
    const replies = await Promise.all(names.map((name) => api.post(SPACES, { name })));
    // Assess
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(422)]);
    for (const reply of replies.filter((each) => each.status === 422)) {
      expect(reply.body).toEqual(invalid('name', TAKEN));
    }
    const list = await api.get(SPACES);
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data).toHaveLength(1);
  });

  it('lets exactly one of 10 concurrent renames to one name win', async () => {
    // Prepare
    const api = await client();
    const stored = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post(SPACES, { name: `Before ${i}` })));
    // Act
    const replies = await Promise.all(
      stored.map((reply, i) => api.patch(`${SPACES}/${reply.body.data.id}`, { name: i % 2 ? 'Winner' : 'WINNER' })),
    );
    // Assess
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, ...Array(9).fill(422)]);
    const list = await api.get(SPACES, { search: 'winner' });
    expect(list.body.meta.total).toBe(1);
    expect((await api.get(SPACES, { search: 'before' })).body.meta.total).toBe(9);
  });

  it('lets 10 concurrent stores of different names all win, each with its own id', async () => {
    // Prepare
    const api = await client();
    // Act
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post(SPACES, { name: `Team ${i}` })));
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(201));
    expect(replies.map((reply) => reply.body.data.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await api.get(SPACES)).body.meta.total).toBe(10);
  });
});

describe.concurrent('spaces: validation (422)', () => {
  const REQUIRED = 'The name field is required.';
  const TOO_LONG = 'The name field must not be greater than 32 characters.';
  const BETWEEN = 'The color field must be between 1 and 6.';
  const INTEGER = 'The color field must be an integer.';

  it.each<[string, Record<string, string | string[]>, string, string]>([
    ['no name', { color: '2' }, 'name', REQUIRED],
    ['an empty name', { name: '' }, 'name', REQUIRED],
    ['a blank name', { name: '   ' }, 'name', REQUIRED],
    ['a 33-character name', { name: 'x'.repeat(33) }, 'name', TOO_LONG],
    ['a name list', { 'name[]': 'a' }, 'name', 'The name field must be a single value, not a list.'],
    ['a repeated name', { name: ['a', 'b'] }, 'name', 'The name field must be a single value, not a list.'],
    ['a control character', { name: 'a\u0000b' }, 'name', 'The name field must not contain control characters.'],
    ['color 0', { name: 'C', color: '0' }, 'color', BETWEEN],
    ['color 7', { name: 'C', color: '7' }, 'color', BETWEEN],
    ['color -1', { name: 'C', color: '-1' }, 'color', BETWEEN],
    ['color 2.5', { name: 'C', color: '2.5' }, 'color', INTEGER],
    ['color abc', { name: 'C', color: 'abc' }, 'color', INTEGER],
  ])('refuses a store with %s', async (_, form, field, message) => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.post(SPACES, form);
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid(field, message));
    expect((await api.get(SPACES)).body.meta.total).toBe(0);
  });

  it.each<[string, unknown, string, string]>([
    ['a number as name', { name: 42 }, 'name', 'The name field must be a string.'],
    ['a lone surrogate in the name', { name: 'a\ud800' }, 'name', 'The name field must be valid Unicode text.'],
    ['color 2.5', { name: 'J', color: 2.5 }, 'color', INTEGER],
    ['color true', { name: 'J', color: true }, 'color', INTEGER],
    ['color 7', { name: 'J', color: 7 }, 'color', BETWEEN],
  ])('refuses a JSON store with %s', async (_, json, field, message) => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.request('POST', SPACES, { json });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid(field, message));
  });

  it('accepts exactly 32 characters, counted as characters', async () => {
    // Prepare
    const api = await client();
    // Act
    const ascii = await api.post(SPACES, { name: 'y'.repeat(32) });
    const emoji = await api.post(SPACES, { name: '🚀'.repeat(32) });
    // Assess
    expect(ascii.status).toBe(201);
    expect(emoji.status).toBe(201);
    expect(emoji.body.data.name).toBe('🚀'.repeat(32));
  });

  it.each(['1', '6'])('accepts color %s', async (color) => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.post(SPACES, { name: 'Edge', color });
    // Assess
    expect(reply.status).toBe(201);
    expect(reply.body.data.color).toBe(Number(color));
  });

  it('lists every invalid field, the first message leading', async () => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.post(SPACES, { name: '', color: '9' });
    // Assess
    expect(reply.body).toEqual({
      message: REQUIRED,
      errors: { name: [REQUIRED], color: [BETWEEN] },
      status: 422,
    });
  });

  it.each(['PUT', 'PATCH'])('%s refuses an empty name or a bad color, changing nothing', async (method) => {
    // Prepare
    const api = await client();
    const { data: space } = (await api.post(SPACES, { name: 'Keep', color: '3' })).body;
    const path = `${SPACES}/${space.id}`;
    // Act
    const empty = await api.request(method, path, { form: { name: '' } });
    const blank = await api.request(method, path, { form: { name: '  ', color: '2' } });
    const long = await api.request(method, path, { form: { name: 'z'.repeat(33) } });
    const color = await api.request(method, path, { form: { color: '0' } });
    const json = await api.request(method, path, { json: { color: 'x' } });
    // Assess
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual(invalid('name', REQUIRED));
    expect(blank.body).toEqual(invalid('name', REQUIRED));
    expect(long.body).toEqual(invalid('name', TOO_LONG));
    expect(color.body).toEqual(invalid('color', BETWEEN));
    expect(json.body).toEqual(invalid('color', INTEGER));
    expect((await api.get(path)).body.data).toEqual(space);
  });
});
