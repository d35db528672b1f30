/**
 * The change feed through the client, against the local stack: the iterator reads every page up to the newest
 * event, `cursor` continues from where it stopped, `type` filters, a stale cursor is a 410 `ApiError`, and
 * `poll` waits for new events until its signal aborts.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Gateway } from '../../infra/local/gateway.ts';
import { startTestGateway } from '../../test/support/http.ts';
import { ApiError, type Event } from '../src/index.ts';
import { all, clientOf, rejectionOf, unique } from './support.ts';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway?.close());

describe.concurrent('events', () => {
  it('lists every event over several pages, oldest first, and continues from its cursor', async () => {
    // Prepare: 12 stores, an update and a delete are 14 events, two pages of 10.
    const { api } = await clientOf(gateway);
    const stored = [];
    for (let i = 0; i < 12; i++) stored.push((await api.spaces.store({ name: unique(`Feed ${i}`) })).data);
    const first = stored[0] as (typeof stored)[number];
    await api.spaces.update(first.id, { color: 6 });
    await api.spaces.delete(first.id);
    // Act
    const feed = api.events.list({ perPage: 10 });
    const events = await all(feed);
    const caughtUp = await all(api.events.list({ after: feed.cursor }));
    const later = await api.spaces.store({ name: unique('Later') });
    const next = await all(api.events.list({ after: feed.cursor }));
    // Assess
    expectTypeOf(events).toEqualTypeOf<Event[]>();
    expect(events.map((event) => Number(event.id))).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(events.map((event) => event.type)).toEqual([
      ...Array(12).fill('space.created'),
      'space.updated',
      'space.deleted',
    ]);
    expect(events[12]?.data).toMatchObject({ id: first.id, color: 6 });
    expect(feed.cursor).toMatch(/^v1\./);
    expect(caughtUp).toEqual([]);
    expect(next).toEqual([expect.objectContaining({ id: '000000000015', type: 'space.created', data: later.data })]);
  });

  it('reads the pages themselves, the last one saying there is no more', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    for (let i = 0; i < 11; i++) await api.spaces.store({ name: unique(`Paged ${i}`) });
    // Act
    const pages = await all(api.events.list().pages());
    // Assess
    expect(pages.map((page) => page.data.data.length)).toEqual([10, 1]);
    expect(pages.map((page) => page.data.meta.has_more)).toEqual([true, false]);
    expect(pages.every((page) => page.requestId !== undefined)).toBe(true);
  });

  it('keeps the events whose type starts with type', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    await api.spaces.store({ name: unique('Space') });
    const domain = await api.domains.store({ name: `feed-${crypto.randomUUID().slice(0, 8)}.example.com` });
    // Act
    const domains = await all(api.events.list({ type: 'domain.' }));
    // Assess
    expect(domains).toEqual([expect.objectContaining({ type: 'domain.created', data: domain.data })]);
  });

  it('throws a 410 ApiError for a cursor of another epoch of the feed: re-list, then read from the start', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    await api.spaces.store({ name: unique('Restored') });
    // Act
    const error = await rejectionOf(all(api.events.list({ after: 'v1.1.999999.0' })));
    const fromStart = await all(api.events.list());
    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 410, message: expect.stringContaining('expired') });
    expect((error as ApiError).requestId).toEqual(expect.any(String));
    expect(fromStart).toHaveLength(1);
  });

  it('polls: yields what is there, waits for new events, and ends when the signal aborts', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const before = await api.spaces.store({ name: unique('Before') });
    const controller = new AbortController();
    const seen: Event[] = [];
    // Act
    const polling = (async () => {
      for await (const event of api.events.poll({ intervalMs: 50, signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 1) await api.spaces.store({ name: unique('During') });
        if (seen.length === 2) setTimeout(() => controller.abort(), 200);
      }
    })();
    await polling;
    // Assess
    expect(seen.map((event) => event.id)).toEqual(['000000000001', '000000000002']);
    expect(seen[0]?.data).toEqual(before.data);
  });
});
