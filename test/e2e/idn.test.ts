import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import type { Client } from '#test/support/http.ts';
import { startTestGateway } from '#test/support/http.ts';
import { newClient } from './helpers.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.close());

const DOMAINS = '/api/v1/domains';

/** The names a search finds, in the order of the page. */
const namesOf = (body: { data: { name: string }[] }) => body.data.map((domain) => domain.name);

describe.concurrent('IDN domain names', () => {
  it('shows a Unicode name in both forms, and an ASCII name twice', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const stored = await api.post(DOMAINS, { name: 'KÖLSCH.de' });
    const ascii = await api.post(DOMAINS, { name: 'plain.example' });
    const shown = await api.get(`${DOMAINS}/${stored.body.data.id}`);
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject({ name: 'xn--klsch-jua.de', unicode_name: 'kölsch.de' });
    expect(shown.body.data).toMatchObject({ name: 'xn--klsch-jua.de', unicode_name: 'kölsch.de' });
    expect(ascii.body.data).toMatchObject({ name: 'plain.example', unicode_name: 'plain.example' });
  });

  describe('search', () => {
    let api: Client;
    beforeAll(async () => {
      api = await newClient(gateway);
      // One at a time, so ids follow this order.
      for (const name of ['bücher.de', 'münchen.de', '例え.jp', 'books.example', 'buecher.example']) {
        expect((await api.post(DOMAINS, { name })).status).toBe(201);
      }
    });

    it.each([
      ['bücher', ['xn--bcher-kva.de']],
      ['bcher-kva', ['xn--bcher-kva.de']],
      ['BÜCHER.DE', ['xn--bcher-kva.de']],
      ['例', ['xn--r8jz45g.jp']],
      ['xn--', ['xn--r8jz45g.jp', 'xn--mnchen-3ya.de', 'xn--bcher-kva.de']],
      ['cher', ['buecher.example', 'xn--bcher-kva.de']],
      ['.de', ['xn--mnchen-3ya.de', 'xn--bcher-kva.de']],
      ['ü', ['xn--mnchen-3ya.de', 'xn--bcher-kva.de']],
      ['zzz', []],
    ])('search=%s finds %j', async (search, names) => {
      // Act
      const reply = await api.get(DOMAINS, { search });
      // Assess
      expect(reply.status).toBe(200);
      expect(namesOf(reply.body)).toEqual(names);
      expect(reply.body.meta.total).toBe(names.length);
    });

    it('finds bücher.de by either form and shows both', async () => {
      // Act
      const [unicode, ascii] = await Promise.all([
        api.get(DOMAINS, { search: 'bücher' }),
        api.get(DOMAINS, { search: 'bcher-kva' }),
      ]);
      // Assess
      for (const reply of [unicode, ascii]) {
        expect(reply.body.data).toEqual([
          expect.objectContaining({ name: 'xn--bcher-kva.de', unicode_name: 'bücher.de' }),
        ]);
      }
    });

    it('sorts by the stored ASCII name', async () => {
      // Act
      const reply = await api.get(DOMAINS, { sort_by: 'name', sort: 'asc' });
      // Assess
      expect(namesOf(reply.body)).toEqual([
        'books.example',
        'buecher.example',
        'xn--bcher-kva.de',
        'xn--mnchen-3ya.de',
        'xn--r8jz45g.jp',
      ]);
    });
  });

  it('pages through the matches of a Unicode search, counting them all', { timeout: 60_000 }, async () => {
    // Prepare: 11 Unicode matches among 2 others, one at a time (a store is a transaction per owner)
    const api = await newClient(gateway);
    const names = Array.from({ length: 11 }, (_, index) => `bücher-${index + 1}.de`);
    for (const name of [...names, 'a.example', 'b.example']) {
      expect((await api.post(DOMAINS, { name })).status).toBe(201);
    }
    // Act
    const first = await api.get(DOMAINS, { search: 'bücher', sort_by: 'name', sort: 'asc' });
    const second = await api.get(DOMAINS, { search: 'bücher', sort_by: 'name', sort: 'asc', page: 2 });
    // Assess
    expect([first.body.meta.total, second.body.meta.total]).toEqual([11, 11]);
    expect([first.body.data.length, second.body.data.length]).toEqual([10, 1]);
    const found = [...first.body.data, ...second.body.data].map(
      (domain: { unicode_name: string }) => domain.unicode_name,
    );
    expect(new Set(found)).toEqual(new Set(names));
  });
});
