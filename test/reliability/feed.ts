/**
 * What the feed suites check: that a poller saw every event exactly once, in id order; that the feed is the
 * exact history of the committed writes (one event per successful write, carrying what the write answered);
 * and that replaying it from the start is a valid history (nothing created twice, changed or deleted before
 * it exists, no two live spaces or domains of the owner sharing a name at any point) that ends in the
 * current state.
 */
import { expect } from 'vitest';
import { foldName } from '#lib/data/keys.ts';

export type FeedEvent = { id: string; type: string; created_at: string; data: Record<string, unknown> };

/** A write as a client saw it: what it did to which resource, and what it answered. */
export type Write = {
  kind: 'space' | 'domain';
  action: 'created' | 'updated' | 'deleted';
  status: number;
  /** The resource answered (store, update), or the id deleted. */
  data?: Record<string, unknown>;
  id?: number;
};

/** The events a poller collected: ids strictly increasing, none twice, the same as the whole feed. */
export function expectPolledAll(polled: FeedEvent[], feed: FeedEvent[]): void {
  const ids = polled.map((event) => event.id);
  expect(ids, 'polled ids increase').toEqual([...ids].sort());
  expect(new Set(ids).size, 'no event polled twice').toBe(ids.length);
  expect(ids, 'the poller missed none').toEqual(feed.map((event) => event.id));
}

const same = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

/**
 * Every successful write that changed something has exactly its event (what it answered); no other event
 * exists. An update that changed nothing answers the resource as an earlier event left it (its `updated_at`
 * included), and has no event of its own.
 */
export function expectOneEventPerWrite(writes: Write[], feed: FeedEvent[]): void {
  const remaining = [...feed];
  const unchanged: Write[] = [];
  for (const write of writes.filter((each) => each.status >= 200 && each.status < 300)) {
    const type = `${write.kind}.${write.action}`;
    const index = remaining.findIndex(
      (event) =>
        event.type === type &&
        (write.action === 'deleted' ? event.data.id === write.id : same(event.data, write.data ?? {})),
    );
    if (index < 0 && write.action === 'updated') {
      unchanged.push(write);
      continue;
    }
    expect(index, `the event of ${type} ${JSON.stringify(write.data ?? write.id)}`).toBeGreaterThanOrEqual(0);
    remaining.splice(index, 1);
  }
  expect(remaining, 'events of no successful write').toEqual([]);
  for (const write of unchanged) {
    const earlier = feed.find(
      (event) =>
        event.type.startsWith(`${write.kind}.`) &&
        event.type !== `${write.kind}.deleted` &&
        same(event.data, write.data ?? {}),
    );
    expect(
      earlier,
      `an update that changed nothing answers a state the feed has: ${JSON.stringify(write.data)}`,
    ).toBeDefined();
  }
}

const sorted = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).sort(([a], [b]) => a.localeCompare(b)));

/** Replays the feed from the start: a valid history at every step, ending in `current` (resources by kind). */
export function expectValidHistory(feed: FeedEvent[], current: Record<'space' | 'domain', unknown[]>): void {
  const state = new Map<string, Record<string, unknown>>();
  for (const event of feed) {
    const [kind, action] = event.type.split('.') as ['space' | 'domain', string];
    const key = `${kind}#${String(event.data.id)}`;
    const exists = state.has(key);
    expect(action === 'created' ? !exists : exists, `${event.id} ${event.type} of ${key}`).toBe(true);
    if (action === 'deleted') state.delete(key);
    else state.set(key, event.data);
    const names = [...state.entries()]
      .filter(([other]) => other.startsWith(`${kind}#`))
      .map(([, data]) => foldName(String(data.name)));
    expect(new Set(names).size, `after ${event.id}, the ${kind} names are unique`).toBe(names.length);
  }
  for (const kind of ['space', 'domain'] as const) {
    const replayed = [...state.entries()].filter(([key]) => key.startsWith(`${kind}#`)).map(([, data]) => sorted(data));
    const live = (current[kind] as Record<string, unknown>[]).map(sorted);
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => Number(a.id) - Number(b.id);
    expect(replayed.sort(byId), `replaying the feed gives the ${kind}s as they are`).toEqual(live.sort(byId));
  }
}
