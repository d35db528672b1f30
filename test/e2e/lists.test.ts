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

const CURSOR_INVALID = 'The cursor is invalid or does not belong to this query.';
const COUNT = 23;

type Item = { id: number; name: string };
type Query = Record<string, string | number>;

/**
 * Stored names are a permutation of 00..22 (`k = i * 7 mod 23`) so name order differs from id order;
 * space names alternate in case so that a case-sensitive sort would give another order.
 */
const resources = [
  {
    path: '/api/v1/spaces',
    other: '/api/v1/domains',
    nameOf: (k: string, i: number) => `${i % 2 ? 'ITEM' : 'item'}-${k}`,
  },
  {
    path: '/api/v1/domains',
    other: '/api/v1/spaces',
    nameOf: (k: string) => `item-${k}.example.com`,
  },
];

const fold = (name: string) => name.toLowerCase();
const byId = (a: Item, b: Item) => a.id - b.id;
const byName = (a: Item, b: Item) => (fold(a.name) < fold(b.name) ? -1 : fold(a.name) > fold(b.name) ? 1 : a.id - b.id);

function ordered(items: Item[], sortBy: string, sort: string): number[] {
  const sorted = [...items].sort(sortBy === 'name' ? byName : byId);
  return (sort === 'desc' ? sorted.reverse() : sorted).map((item) => item.id);
}

/** A link as its absolute base and its query, so it compares regardless of parameter order. */
function parse(link: string | null) {
  if (link === null) return null;
  const url = new URL(link);
  return { base: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) };
}

describe.concurrent.each(resources)('$path list', ({ path, other, nameOf }) => {
  let owner: Client;
  let items: Item[];
  const base = () => `${gateway.url}${path}`;
  /** The effective query a link repeats. */
  const effective = (query: Query = {}) => ({
    search_by: 'name',
    sort_by: 'id',
    sort: 'desc',
    per_page: '10',
    page: '1',
    ...Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])),
  });

  beforeAll(async () => {
    owner = await newClient(gateway);
    // A few at a time: ids then follow no particular order, so expectations use the ids the API gave.
    const indexes = Array.from({ length: COUNT }, (_, i) => i);
    items = [];
    for (let start = 0; start < COUNT; start += 6) {
      const batch = indexes.slice(start, start + 6);
      const replies = await Promise.all(
        batch.map((i) => owner.post(path, { name: nameOf(String((i * 7) % COUNT).padStart(2, '0'), i) })),
      );
      for (const reply of replies) {
        expect(reply.status).toBe(201);
        items.push({ id: reply.body.data.id, name: reply.body.data.name });
      }
    }
    expect(new Set(items.map((item) => item.id)).size).toBe(COUNT);
  });

  /** Follows `links.next` from the first page; checks every page's meta on the way. */
  async function walk(query: Query) {
    const pages = [];
    let reply = await owner.get(path, query);
    for (;;) {
      expect(reply.status).toBe(200);
      pages.push(reply.body);
      if (reply.body.links.next === null) break;
      expect(pages.length).toBeLessThan(COUNT);
      reply = await owner.request('GET', reply.body.links.next.slice(gateway.url.length));
    }
    return pages;
  }

  it('answers the first page in the exact envelope', async () => {
    // Act
    const reply = await owner.get(path);
    // Assess
    const ids = ordered(items, 'id', 'desc');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      data: expect.any(Array),
      links: { first: expect.any(String), last: expect.any(String), prev: null, next: expect.any(String) },
      meta: {
        current_page: 1,
        from: 1,
        last_page: 3,
        path: base(),
        per_page: 10,
        to: 10,
        total: COUNT,
        next_cursor: expect.stringMatching(/^\S+$/),
      },
      status: 200,
    });
    expect(reply.body.data.map((item: Item) => item.id)).toEqual(ids.slice(0, 10));
    expect(Object.keys(reply.body.data[0]).sort()).toEqual(
      path.endsWith('spaces')
        ? ['color', 'created_at', 'id', 'name', 'updated_at']
        : [
            'created_at',
            'id',
            'idn_warning',
            'index_page',
            'last_checked_at',
            'name',
            'not_found_page',
            'records',
            'serving',
            'serving_error',
            'status',
            'unicode_name',
            'updated_at',
            'verification',
            'verified_at',
          ],
    );
    expect(parse(reply.body.links.first)).toEqual({ base: base(), query: effective() });
    expect(parse(reply.body.links.last)).toEqual({ base: base(), query: effective({ page: 3 }) });
    expect(parse(reply.body.links.next)).toEqual({
      base: base(),
      query: effective({ page: 2, cursor: reply.body.meta.next_cursor }),
    });
  });

  it.each([
    ['id', 'desc'],
    ['id', 'asc'],
    ['name', 'asc'],
    ['name', 'desc'],
  ])('following links.next by %s %s reaches every item exactly once, in order', async (sortBy, sort) => {
    // Act
    const pages = await walk({ sort_by: sortBy, sort });
    // Assess
    expect(pages).toHaveLength(3);
    expect(pages.flatMap((page) => page.data.map((item: Item) => item.id))).toEqual(ordered(items, sortBy, sort));
    pages.forEach((page, index) => {
      const last = index === pages.length - 1;
      expect(page.meta).toEqual({
        current_page: index + 1,
        from: index * 10 + 1,
        last_page: 3,
        path: base(),
        per_page: 10,
        to: Math.min((index + 1) * 10, COUNT),
        total: COUNT,
        next_cursor: last ? null : expect.any(String),
      });
      expect(parse(page.links.first)).toEqual({ base: base(), query: effective({ sort_by: sortBy, sort }) });
      expect(parse(page.links.last)).toEqual({ base: base(), query: effective({ sort_by: sortBy, sort, page: 3 }) });
      expect(parse(page.links.prev)).toEqual(
        index === 0 ? null : { base: base(), query: effective({ sort_by: sortBy, sort, page: index }) },
      );
      expect(parse(page.links.next)).toEqual(
        last
          ? null
          : {
              base: base(),
              query: effective({ sort_by: sortBy, sort, page: index + 2, cursor: page.meta.next_cursor }),
            },
      );
    });
  });

  it('pages by page number alone to the same pages as the cursor', async () => {
    // Prepare
    const viaCursor = await walk({ sort_by: 'name', sort: 'asc' });
    // Act
    const pages = await Promise.all([1, 2, 3].map((page) => owner.get(path, { sort_by: 'name', sort: 'asc', page })));
    // Assess
    pages.forEach((reply, index) => {
      expect(reply.body.data).toEqual(viaCursor[index]?.data);
      expect(reply.body.meta).toEqual(viaCursor[index]?.meta);
    });
    expect(parse(pages[1]?.body.links.prev ?? null)?.query).toEqual(effective({ sort_by: 'name', sort: 'asc' }));
  });

  it('answers a page past the end with empty data and correct meta', async () => {
    // Act
    const reply = await owner.get(path, { page: 7 });
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    expect(reply.body.meta).toEqual({
      current_page: 7,
      from: null,
      last_page: 3,
      path: base(),
      per_page: 10,
      to: null,
      total: COUNT,
      next_cursor: null,
    });
    expect(reply.body.links.next).toBeNull();
    expect(parse(reply.body.links.prev)).toEqual({ base: base(), query: effective({ page: 3 }) });
    expect(parse(reply.body.links.last)).toEqual({ base: base(), query: effective({ page: 3 }) });
  });

  it.each([25, 50, 100])('answers every item on one page with per_page=%i', async (perPage) => {
    // Act
    const reply = await owner.get(path, { per_page: perPage, sort: 'asc' });
    // Assess
    expect(reply.body.data.map((item: Item) => item.id)).toEqual(ordered(items, 'id', 'asc'));
    expect(reply.body.meta).toMatchObject({ per_page: perPage, last_page: 1, from: 1, to: COUNT, next_cursor: null });
    expect(reply.body.links).toMatchObject({ prev: null, next: null });
    expect(parse(reply.body.links.first)?.query).toEqual(effective({ per_page: perPage, sort: 'asc' }));
    expect(reply.body.links.last).toBe(reply.body.links.first);
  });

  it.each([
    ['per_page=7', { per_page: 7 }],
    ['per_page=0', { per_page: 0 }],
    ['per_page=1000', { per_page: 1000 }],
    ['per_page=abc', { per_page: 'abc' }],
    ['sort_by=color', { sort_by: 'color' }],
    ['sort_by=created_at', { sort_by: 'created_at' }],
    ['sort=random', { sort: 'random' }],
    ['search_by=color', { search_by: 'color' }],
    ['page=0', { page: 0 }],
    ['page=-2', { page: -2 }],
    ['page=abc', { page: 'abc' }],
    ['page=1.5', { page: '1.5' }],
    ['unknown parameters', { limit: 3, order: 'asc' }],
  ])('falls back to the default for %s', async (_, query) => {
    // Act
    const reply = await owner.get(path, query);
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((item: Item) => item.id)).toEqual(ordered(items, 'id', 'desc').slice(0, 10));
    expect(reply.body.meta).toMatchObject({ current_page: 1, per_page: 10, from: 1, to: 10, total: COUNT });
    expect(parse(reply.body.links.first)?.query).toEqual(effective());
    expect(parse(reply.body.links.next)?.query).toEqual(effective({ page: 2, cursor: reply.body.meta.next_cursor }));
  });

  it('keeps valid parameters when others fall back', async () => {
    // Act
    const reply = await owner.get(path, { sort_by: 'name', sort: 'sideways', per_page: 25 });
    // Assess
    expect(reply.body.data.map((item: Item) => item.id)).toEqual(ordered(items, 'name', 'desc'));
    expect(parse(reply.body.links.first)?.query).toEqual(effective({ sort_by: 'name', per_page: 25 }));
  });

  it('searches a case-insensitive substring of the name and pages through the matches', async () => {
    // Prepare
    const matches = items.filter((item) => item.name.includes('1'));
    // Act
    const pages = await walk({ search: '1', sort_by: 'name', sort: 'asc' });
    const upper = await owner.get(path, { search: 'ITEM-2' });
    const spaced = await owner.get(path, { search: '  item-2  ' });
    const none = await owner.get(path, { search: 'zzz' });
    // Assess
    expect(matches).toHaveLength(12);
    expect(pages).toHaveLength(2);
    expect(pages.flatMap((page) => page.data.map((item: Item) => item.id))).toEqual(ordered(matches, 'name', 'asc'));
    expect(pages[0]?.meta).toMatchObject({ total: 12, last_page: 2, from: 1, to: 10 });
    expect(pages[1]?.meta).toMatchObject({ total: 12, current_page: 2, from: 11, to: 12, next_cursor: null });
    expect(parse(pages[0]?.links.next)?.query).toEqual(
      effective({ search: '1', sort_by: 'name', sort: 'asc', page: 2, cursor: pages[0]?.meta.next_cursor }),
    );
    expect(parse(pages[1]?.links.prev)?.query).toEqual(effective({ search: '1', sort_by: 'name', sort: 'asc' }));
    expect(upper.body.data.map((item: Item) => fold(item.name).slice(0, 7)).sort()).toEqual([
      'item-20',
      'item-21',
      'item-22',
    ]);
    expect(upper.body.meta.total).toBe(3);
    expect(parse(upper.body.links.first)?.query).toEqual(effective({ search: 'ITEM-2' }));
    expect(spaced.body.meta.total).toBe(3);
    expect(parse(spaced.body.links.first)?.query).toEqual(effective({ search: 'item-2' }));
    expect(none.body).toMatchObject({ data: [], meta: { total: 0, from: null, to: null, last_page: 1 } });
  });

  it('never ignores a search: one longer than any name matches nothing, however long', async () => {
    // Prepare: names are at most 32 characters (a domain's 253): a search of 256 can match none.
    const longest = 'item-'.padEnd(255, 'x');
    // Act
    const tooLong = await owner.get(path, { search: 'i'.repeat(256) });
    const huge = await owner.get(path, { search: 'item-1'.repeat(500) });
    const atTheLimit = await owner.get(path, { search: longest });
    // Assess: the same empty page a search that matches nothing answers, the search kept in its links.
    for (const reply of [tooLong, huge, atTheLimit]) {
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ data: [], meta: { total: 0, from: null, to: null, last_page: 1 } });
    }
    expect(parse(tooLong.body.links.first)?.query).toEqual(effective({ search: 'i'.repeat(256) }));
  });

  it('answers an empty list for an owner without items', async () => {
    // Prepare
    const empty = await newClient(gateway);
    // Act
    const reply = await empty.get(path, { page: 2 });
    const first = await empty.get(path);
    // Assess
    expect(first.body).toEqual({
      data: [],
      links: { first: expect.any(String), last: expect.any(String), prev: null, next: null },
      meta: {
        current_page: 1,
        from: null,
        last_page: 1,
        path: base(),
        per_page: 10,
        to: null,
        total: 0,
        next_cursor: null,
      },
      status: 200,
    });
    expect(reply.body.meta).toMatchObject({ current_page: 2, from: null, to: null, last_page: 1, total: 0 });
    expect(parse(reply.body.links.prev)?.query).toEqual(effective());
  });

  it('lets the cursor override page, and the last repeated parameter win', async () => {
    // Prepare
    const first = await owner.get(path, { sort: 'asc' });
    // Act
    const reply = await owner.get(`${path}?sort=asc&page=9&cursor=${first.body.meta.next_cursor}`);
    const repeated = await owner.get(`${path}?sort=desc&sort=asc&per_page=50&per_page=25`);
    // Assess
    expect(reply.body.meta.current_page).toBe(2);
    expect(reply.body.data.map((item: Item) => item.id)).toEqual(ordered(items, 'id', 'asc').slice(10, 20));
    expect(repeated.body.meta.per_page).toBe(25);
    expect(repeated.body.data[0].id).toBe(ordered(items, 'id', 'asc')[0]);
  });

  describe('refuses a cursor (422 on cursor)', () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = (await owner.get(path, { sort_by: 'name', sort: 'asc' })).body.meta.next_cursor;
    });
    const query = (overrides: Query = {}) => ({ sort_by: 'name', sort: 'asc', cursor, ...overrides });
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

    it.each<[string, () => Query]>([
      ['that is malformed', () => query({ cursor: 'not-a-cursor' })],
      ['with three parts', () => query({ cursor: `${cursor}.x` })],
      ['with a tampered payload', () => query({ cursor: flip(cursor, 2) })],
      ['with a tampered signature', () => query({ cursor: flip(cursor, cursor.length - 3) })],
      [
        'with a forged payload',
        () => query({ cursor: `${Buffer.from('[5,1,"a"]').toString('base64url')}.${cursor.split('.')[1]}` }),
      ],
      ['from another sort order', () => query({ sort: 'desc' })],
      ['from another sort key', () => query({ sort_by: 'id' })],
      ['with another page size', () => query({ per_page: 25 })],
      ['with a search', () => query({ search: 'item' })],
    ])('%s', async (_, build) => {
      // Act
      const reply = await owner.get(path, build());
      // Assess
      expect(reply.status).toBe(422);
      expect(reply.body).toEqual(invalid('cursor', CURSOR_INVALID));
    });

    it('from another owner', async () => {
      // Prepare
      const intruder = await newClient(gateway);
      // Act
      const reply = await intruder.get(path, query());
      // Assess
      expect(reply.body).toEqual(invalid('cursor', CURSOR_INVALID));
    });

    it('from the other resource', async () => {
      // Act
      const reply = await owner.get(other, query());
      // Assess
      expect(reply.body).toEqual(invalid('cursor', CURSOR_INVALID));
    });

    it('but accepts it unchanged', async () => {
      // Act
      const reply = await owner.get(path, query());
      // Assess
      expect(reply.status).toBe(200);
      expect(reply.body.meta.current_page).toBe(2);
    });
  });
});
