import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { itemKey } from '#lib/data/keys.ts';
import { db } from '#test/support/database.ts';
import { storeOldShapeDomain } from '#test/support/domains.ts';
import { startTestGateway } from '#test/support/http.ts';
import { ISO_UTC, invalid, NOT_FOUND, newClient, TAKEN } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const DOMAINS = '/api/v1/domains';
const client = () => newClient(gateway);

/** Domain names are unique across owners: each test takes its own (the table is fresh for this file). */
let sequence = 0;
const unique = (label = 'site') => `${label}-${++sequence}.example.com`;

const INVALID_NAME = 'The name field must be a valid domain name.';
const INVALID_URL = (label: string) => `The ${label} field must be a valid http or https URL.`;
const LOOP = (label: string) => `The ${label} must not point to the domain itself.`;
const label63 = 'a'.repeat(63);

describe.concurrent('domains: store, show, update, delete', () => {
  it('stores a domain (201) and shows it (200) in the resource shape', async () => {
    // Prepare
    const api = await client();
    const name = unique();
    // Act
    const stored = await api.post(DOMAINS, {
      name,
      index_page: 'https://www.example.org/start',
      not_found_page: 'http://help.example.org/404',
    });
    const shown = await api.get(`${DOMAINS}/${stored.body.data.id}`);
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body).toEqual({
      data: {
        id: 1,
        name,
        unicode_name: name,
        idn_warning: null,
        status: 'pending',
        serving: 'pending',
        serving_error: null,
        // What the owner creates: the TXT record that proves the domain, the CNAME to the stage's edge host.
        records: [
          {
            type: 'TXT',
            name: `_ds-challenge.${name}`,
            value: expect.stringMatching(/^[\w-]{32}$/),
            status: 'missing',
          },
          { type: 'CNAME', name, value: 'edge.test', status: 'missing' },
        ],
        verification: { type: 'TXT', name: `_ds-challenge.${name}`, value: expect.stringMatching(/^[\w-]{32}$/) },
        verified_at: null,
        last_checked_at: null,
        index_page: 'https://www.example.org/start',
        not_found_page: 'http://help.example.org/404',
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.stringMatching(ISO_UTC),
      },
    });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(stored.body);
  });

  it('stores absent or empty pages as null', async () => {
    // Prepare
    const api = await client();
    // Act
    const absent = await api.post(DOMAINS, { name: unique() });
    const empty = await api.post(DOMAINS, { name: unique(), index_page: '', not_found_page: '  ' });
    // Assess
    expect(absent.body.data).toMatchObject({ index_page: null, not_found_page: null });
    expect(empty.status).toBe(201);
    expect(empty.body.data).toMatchObject({ index_page: null, not_found_page: null });
  });

  it('accepts JSON bodies', async () => {
    // Prepare
    const api = await client();
    const name = unique();
    // Act
    const stored = await api.request('POST', DOMAINS, { json: { name, index_page: 'https://x.example.org/' } });
    const updated = await api.request('PUT', `${DOMAINS}/${stored.body.data.id}`, { json: { index_page: null } });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name, index_page: 'https://x.example.org/' });
    expect(updated.status).toBe(200);
    expect(updated.body.data.index_page).toBeNull();
  });

  it.each(['PUT', 'PATCH'])('%s updates pages partially and never changes the name', async (method) => {
    // Prepare
    const api = await client();
    const name = unique();
    const { data: domain } = (
      await api.post(DOMAINS, { name, index_page: 'https://a.example.org/', not_found_page: 'https://b.example.org/' })
    ).body;
    const path = `${DOMAINS}/${domain.id}`;
    // Act
    const one = await api.request(method, path, { form: { not_found_page: 'https://c.example.org/404' } });
    const renamed = await api.request(method, path, { form: { name: unique('renamed') } });
    const cleared = await api.request(method, path, { form: { index_page: '' } });
    const shown = await api.get(path);
    // Assess
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({
      name,
      index_page: 'https://a.example.org/',
      not_found_page: 'https://c.example.org/404',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe(name);
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ name, index_page: null, not_found_page: 'https://c.example.org/404' });
    expect(shown.body.data).toEqual(cleared.body.data);
    expect(shown.body.data.created_at).toBe(domain.created_at);
    expect(shown.body.data.updated_at >= domain.updated_at).toBe(true);
  });

  it('deletes a domain (200), then answers 404 for it and releases its name', async () => {
    // Prepare
    const [api, other] = await Promise.all([client(), client()]);
    const name = unique();
    const { data: domain } = (await api.post(DOMAINS, { name })).body;
    const path = `${DOMAINS}/${domain.id}`;
    // Act
    const deleted = await api.delete(path);
    // Assess
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: domain.id, object: 'domain', deleted: true, status: 200 });
    expect((await api.get(path)).body).toEqual(NOT_FOUND);
    expect((await api.delete(path)).body).toEqual(NOT_FOUND);
    expect((await api.put(path, { index_page: '' })).body).toEqual(NOT_FOUND);
    expect((await other.post(DOMAINS, { name })).status).toBe(201);
  });

  it('answers 404, not 422, to an invalid update of an id the owner does not have', async () => {
    // Prepare
    const owner = await client();
    const other = await client();
    const { data: domain } = (await owner.post(DOMAINS, { name: unique('mine') })).body;
    // Act
    const unknown = await owner.patch(`${DOMAINS}/999`, { index_page: 'not a url' });
    const foreign = await other.put(`${DOMAINS}/${domain.id}`, { index_page: 'not a url' });
    const own = await owner.patch(`${DOMAINS}/${domain.id}`, { index_page: 'not a url' });
    // Assess
    expect(unknown.body).toEqual(NOT_FOUND);
    expect(foreign.body).toEqual(NOT_FOUND);
    expect(own.status).toBe(422);
  });

  it('never reuses a deleted id', async () => {
    // Prepare
    const api = await client();
    for (let i = 0; i < 3; i++) await api.post(DOMAINS, { name: unique() });
    await api.delete(`${DOMAINS}/3`);
    // Act
    const next = await api.post(DOMAINS, { name: unique() });
    // Assess
    expect(next.body.data.id).toBe(4);
  });
});

describe.concurrent('domains: name normalisation', () => {
  it.each([
    ['uppercase', (n: string) => n.toUpperCase(), (n: string) => n],
    ['http:// prefix', (n: string) => `http://${n}`, (n: string) => n],
    ['https:// prefix and trailing slash', (n: string) => `HTTPS://${n}/`, (n: string) => n],
    ['surrounding spaces', (n: string) => `  ${n}  `, (n: string) => n],
  ])('stores %s in its normal form', async (_, write, expected) => {
    // Prepare
    const api = await client();
    const name = unique('norm');
    // Act
    const stored = await api.post(DOMAINS, { name: write(name) });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data.name).toBe(expected(name));
  });

  it('stores a Unicode name as punycode, and treats its forms as one name', async () => {
    // Prepare
    const api = await client();
    // Act
    const stored = await api.post(DOMAINS, { name: 'https://BÜCHER.de/' });
    const ascii = await api.post(DOMAINS, { name: 'xn--bcher-kva.de' });
    const unicode = await api.post(DOMAINS, { name: 'bücher.de' });
    const cjk = await api.post(DOMAINS, { name: '例え.jp' });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data.name).toBe('xn--bcher-kva.de');
    expect((await api.get(`${DOMAINS}/${stored.body.data.id}`)).body.data.name).toBe('xn--bcher-kva.de');
    expect(ascii.body).toEqual(invalid('name', TAKEN));
    expect(unicode.body).toEqual(invalid('name', TAKEN));
    expect(cjk.body.data.name).toBe('xn--r8jz45g.jp');
  });

  it('accepts a 239-character name (its verification name is 253), also written with a scheme', async () => {
    // Prepare
    const api = await client();
    const longest = (first: string) => [first.padEnd(63, 'a'), label63, label63, 'a'.repeat(47)].join('.');
    // Act
    const plain = await api.post(DOMAINS, { name: longest('plain') });
    const withScheme = await api.post(DOMAINS, { name: `https://${longest('scheme')}/` });
    // Assess
    expect(plain.status).toBe(201);
    expect(plain.body.data.name).toHaveLength(239);
    expect(plain.body.data.verification.name).toHaveLength(253);
    expect(withScheme.status).toBe(201);
    expect(withScheme.body.data.name).toBe(longest('scheme'));
  });
});

describe.concurrent('domains: validation (422)', () => {
  it.each([
    ['no name', {}, 'The name field is required.'],
    ['an empty name', { name: '' }, 'The name field is required.'],
    ['a name list', { 'name[]': 'a.com' }, 'The name field must be a single value, not a list.'],
    [
      'a 254-character name',
      { name: [label63, label63, label63, 'a'.repeat(62)].join('.') },
      'The name field must not be greater than 253 characters.',
    ],
    [
      'a 240-character name (no room for its verification record)',
      { name: [label63, label63, label63, 'a'.repeat(48)].join('.') },
      'The name field must not be greater than 239 characters in its ASCII (punycode) form, so that its ' +
        "verification record (_ds-challenge.<name>) fits in DNS's 253.",
    ],
    ['an IPv4 address', { name: '192.168.1.1' }, INVALID_NAME],
    ['an IPv6 address', { name: '[2001:db8::1]' }, INVALID_NAME],
    ['a port', { name: 'example.com:8080' }, INVALID_NAME],
    ['a path', { name: 'example.com/about' }, INVALID_NAME],
    ['a URL with a path', { name: 'https://example.com/about' }, INVALID_NAME],
    ['a space', { name: 'my site.com' }, INVALID_NAME],
    ['a wildcard', { name: '*.example.com' }, INVALID_NAME],
    ['a single label', { name: 'localhost' }, INVALID_NAME],
    ['a leading hyphen', { name: '-bad.example.com' }, INVALID_NAME],
    ['a trailing hyphen', { name: 'bad-.example.com' }, INVALID_NAME],
    ['a 64-character label', { name: `${'a'.repeat(64)}.com` }, INVALID_NAME],
    ['a numeric top label', { name: 'example.123' }, INVALID_NAME],
    ['an underscore', { name: 'under_score.com' }, INVALID_NAME],
    ['an empty label', { name: 'double..dot.com' }, INVALID_NAME],
    ['another scheme', { name: 'ftp://example.com' }, INVALID_NAME],
  ])('refuses a store with %s', async (_, form, message) => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.post(DOMAINS, form as Record<string, string>);
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('name', message));
    expect((await api.get(DOMAINS)).body.meta.total).toBe(0);
  });

  it.each([
    ['index_page', 'index page'],
    ['not_found_page', 'not found page'],
  ])('refuses a %s that is not an absolute http(s) URL or is too long', async (field, label) => {
    // Prepare
    const api = await client();
    const base = 'https://pages.example.org/';
    const longest = base + 'p'.repeat(255 - base.length);
    // Act
    const replies = await Promise.all(
      ['www.example.org/page', '/relative', 'ftp://example.org/file', 'javascript:alert(1)', 'https://'].map((url) =>
        api.post(DOMAINS, { name: unique(), [field]: url }),
      ),
    );
    const tooLong = await api.post(DOMAINS, { name: unique(), [field]: `${longest}p` });
    const fits = await api.post(DOMAINS, { name: unique(), [field]: longest });
    // Assess
    for (const reply of replies) expect(reply.body).toEqual(invalid(field, INVALID_URL(label)));
    expect(tooLong.body).toEqual(invalid(field, `The ${label} field must not be greater than 255 characters.`));
    expect(fits.status).toBe(201);
    expect(fits.body.data[field]).toBe(longest);
  });

  it('refuses, as a form and as JSON, a page that is no URL as the standard parses it: spaces, quotes, credentials', async () => {
    // Prepare
    const api = await client();
    const refused = [
      ['https://x.example.org/a b', 'The index page field must not contain spaces.'],
      ['https://user:secret@x.example.org/', 'The index page field must not contain a user name or password.'],
      ['https://x.example.org/a\u0007', 'The index page field must not contain control characters.'],
    ] as const;
    // Act
    const replies = await Promise.all(
      refused.flatMap(([url]) => [
        api.post(DOMAINS, { name: unique(), index_page: url }),
        api.request('POST', DOMAINS, { json: { name: unique(), index_page: url } }),
      ]),
    );
    // Assess
    expect(replies.map((reply) => reply.body)).toEqual(
      refused.flatMap(([, message]) => [invalid('index_page', message), invalid('index_page', message)]),
    );
    expect((await api.get(DOMAINS)).body.meta.total).toBe(0);
  });

  it('stores and shows a page as its href: encoded, ASCII, with a path (a form and JSON alike)', async () => {
    // Prepare
    const api = await client();
    const page = 'https://X.example.org/"><script>?q=ä';
    const href = 'https://x.example.org/%22%3E%3Cscript%3E?q=%C3%A4';
    // Act
    const form = await api.post(DOMAINS, {
      name: unique(),
      index_page: page,
      not_found_page: 'https://bücher.example',
    });
    const json = await api.request('POST', DOMAINS, { json: { name: unique(), index_page: page } });
    const shown = await api.get(`${DOMAINS}/${form.body.data.id}`);
    // Assess
    expect(form.body.data.index_page).toBe(href);
    expect(form.body.data.not_found_page).toBe('https://xn--bcher-kva.example/');
    expect(json.body.data.index_page).toBe(href);
    expect(shown.body.data.index_page).toBe(href);
  });

  it('shows pages stored before they were normalized as their href (read as they are: no migration)', async () => {
    // Prepare: pages written as the service stored them before: as sent, checked only to parse as http(s).
    const api = await client();
    const stored = await api.post(DOMAINS, { name: unique() });
    const id = stored.body.data.id;
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(api.owner, 'domain', id),
        UpdateExpression: 'SET indexPage = :index, notFoundPage = :missing',
        ExpressionAttributeValues: {
          ':index': 'https://x.example.org/a b/"><script>',
          ':missing': 'https://user:secret@bücher.example/404',
        },
      }),
    );
    // Act
    const shown = await api.get(`${DOMAINS}/${id}`);
    const listed = await api.get(DOMAINS);
    const changed = await api.patch(`${DOMAINS}/${id}`, { not_found_page: 'https://x.example.org/404' });
    // Assess
    const pages = {
      index_page: 'https://x.example.org/a%20b/%22%3E%3Cscript%3E',
      not_found_page: 'https://xn--bcher-kva.example/404',
    };
    expect(shown.body.data).toMatchObject(pages);
    expect(listed.body.data[0]).toMatchObject(pages);
    expect(changed.body.data).toMatchObject({
      index_page: pages.index_page,
      not_found_page: 'https://x.example.org/404',
    });
  });

  it.each([
    ['index_page', 'index page', (n: string) => `https://${n}/`],
    ['not_found_page', 'not found page', (n: string) => `http://${n.toUpperCase()}:8080/404`],
  ])('refuses a %s on the domain itself when storing', async (field, label, page) => {
    // Prepare
    const api = await client();
    const name = unique('loop');
    // Act
    const reply = await api.post(DOMAINS, { name: `https://${name}`, [field]: page(name) });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid(field, LOOP(label)));
  });

  it('allows pages on a subdomain of the domain', async () => {
    // Prepare
    const api = await client();
    const name = unique('sub');
    // Act
    const reply = await api.post(DOMAINS, { name, index_page: `https://www.${name}/` });
    // Assess
    expect(reply.status).toBe(201);
  });

  it.each(['PUT', 'PATCH'])(
    '%s refuses a page on the domain itself, or a bad URL, changing nothing',
    async (method) => {
      // Prepare
      const api = await client();
      const name = unique('loop');
      const { data: domain } = (await api.post(DOMAINS, { name, not_found_page: 'https://keep.example.org/' })).body;
      const path = `${DOMAINS}/${domain.id}`;
      // Act
      const index = await api.request(method, path, { form: { index_page: `https://${name.toUpperCase()}/home` } });
      const both = await api.request(method, path, {
        form: { index_page: `http://${name}/`, not_found_page: `https://${name}./404` },
      });
      const badUrl = await api.request(method, path, { form: { not_found_page: 'not a url' } });
      // Assess
      expect(index.status).toBe(422);
      expect(index.body).toEqual(invalid('index_page', LOOP('index page')));
      expect(both.body).toEqual({
        message: LOOP('index page'),
        errors: { index_page: [LOOP('index page')], not_found_page: [LOOP('not found page')] },
        status: 422,
      });
      expect(badUrl.body).toEqual(invalid('not_found_page', INVALID_URL('not found page')));
      expect((await api.get(path)).body.data).toEqual(domain);
    },
  );

  it('refuses pages the edge could not store (over 1 KB with the record), at store and update, naming the fields set', async () => {
    // Prepare: 235 'é' are 1,410 bytes percent-encoded, over the 978 two pages may take; 120 are 720.
    const api = await client();
    const long = `https://pages.example.org/${'é'.repeat(229)}`;
    const half = `https://pages.example.org/${'é'.repeat(120)}`;
    const message = (bytes: number) =>
      `The index_page and not_found_page fields may take 978 bytes together as ASCII URLs; these take ${bytes}.`;
    const halfBytes = new URL(half).href.length;
    // Act
    const store = await api.post(DOMAINS, { name: unique('big'), index_page: long });
    const stored = await api.post(DOMAINS, { name: unique('big'), index_page: half });
    const path = `${DOMAINS}/${stored.body.data.id}`;
    const update = await api.request('PATCH', path, { form: { not_found_page: half } });
    // Assess
    expect(store.body).toEqual(invalid('index_page', message(new URL(long).href.length)));
    expect(stored.status).toBe(201);
    expect(update.body).toEqual(invalid('not_found_page', message(2 * halfBytes)));
    expect((await api.get(path)).body.data).toEqual(stored.body.data);
  });

  it('lists every invalid field, the first message leading', async () => {
    // Prepare
    const api = await client();
    // Act
    const reply = await api.post(DOMAINS, { name: 'nope', index_page: 'nope', not_found_page: 'nope' });
    // Assess
    expect(reply.body).toEqual({
      message: INVALID_NAME,
      errors: {
        name: [INVALID_NAME],
        index_page: [INVALID_URL('index page')],
        not_found_page: [INVALID_URL('not found page')],
      },
      status: 422,
    });
  });
});

describe.concurrent('domains: who holds a name', () => {
  it('refuses a name active under another owner, in any written form, and the owner’s own duplicate', async () => {
    // Prepare: Alice's domain is active: stored before verification existed (test/e2e/verify.test.ts verifies).
    const [alice, bob] = await Promise.all([client(), client()]);
    const name = unique('owned');
    await storeOldShapeDomain(db, alice.owner, name);
    // Act
    const same = await bob.post(DOMAINS, { name });
    const written = await bob.post(DOMAINS, { name: `HTTPS://${name.toUpperCase()}/` });
    const own = await alice.post(DOMAINS, { name });
    // Assess
    expect(same.status).toBe(422);
    expect(same.body).toEqual(invalid('name', TAKEN));
    expect(written.body).toEqual(invalid('name', TAKEN));
    expect(own.body).toEqual(invalid('name', TAKEN));
    expect((await bob.get(DOMAINS)).body.meta.total).toBe(0);
  });

  it('lets 10 owners storing one name concurrently each have it pending: a pending domain reserves nothing', async () => {
    // Prepare
    const owners = await Promise.all(Array.from({ length: 10 }, client));
    const name = unique('race');
    // Act
    const replies = await Promise.all(
      owners.map((api, i) => api.post(DOMAINS, { name: i % 2 ? name.toUpperCase() : name })),
    );
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(201));
    for (const reply of replies) expect(reply.body.data).toMatchObject({ name, status: 'pending' });
    expect(new Set(replies.map((reply) => reply.body.data.verification.value)).size).toBe(10);
  });

  it('lets exactly one of 10 concurrent stores of one name by one owner win', async () => {
    // Prepare
    const api = await client();
    const name = unique('race');
    // Act
    const replies = await Promise.all(Array.from({ length: 10 }, () => api.post(DOMAINS, { name })));
    // Assess
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, ...Array(9).fill(422)]);
    expect((await api.get(DOMAINS)).body.meta.total).toBe(1);
  });
});
