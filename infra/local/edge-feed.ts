/**
 * Locally, there is no stream and no event bus: this follows every owner's change feed instead and does what
 * the bus's targets do on AWS: syncs the host of every domain event, with the same `syncHost` over the same edge
 * (the store and tenants, on the local CloudFront) the AWS sync function runs, and hands every event to
 * `onEvent` (the webhook worker's fan-out). Polls every `intervalMs`, so a change reaches the edge and the
 * webhooks within about that long.
 *
 * The owners with changes are found in the feed-change index (`feedChangesSince`: the feed heads, keyed by
 * when they last changed, which every change's transaction sets), never by scanning the table: a poll reads
 * the heads changed in the last `CHANGE_MARGIN_MS` (one Query per shard of the index), and only the owners
 * whose head moved since the follower last caught up with them are read further (their head and new events).
 * The first poll reads every head: the edge (the local CloudFront, in memory) is rebuilt from each feed's
 * oldest event kept.
 */
import type { Edge } from '#functions/edge/sync.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import type { EventRecord } from '#lib/data/event-item.ts';
import { type FeedPosition, listEvents } from '#lib/data/events.ts';
import { feedChangesSince } from '#lib/data/feed-head.ts';
import { edgeSyncDeps } from '#lib/domains/data/domains.ts';
import { syncHost } from '#lib/edge/sync.ts';

export type EdgeFollower = { stop: () => Promise<void>; caughtUp: () => Promise<void> };

const START: FeedPosition = { epoch: undefined, id: 0, since: 0 };

/**
 * How far back each poll asks the index, before the time the last one began: a change's `committedAt` is taken
 * when its transaction begins, and it may commit (and reach the index) seconds later, within its write budget.
 */
export const CHANGE_MARGIN_MS = 30_000;

export function followChanges(options: {
  db: Db;
  /** The edge to keep in line with the domains (none: domain events only go to `onEvent`). */
  edge?: Edge;
  /** Every event of every owner, in each owner's feed order, once (from the oldest kept, at start). */
  onEvent?: (owner: string, event: EventRecord) => Promise<void>;
  /** After each page of an owner's events handed to `onEvent`: where the follower now stands in that feed. */
  onPosition?: (owner: string, position: FeedPosition) => Promise<void>;
  intervalMs?: number;
  log?: (entry: Record<string, unknown>) => void;
}): EdgeFollower {
  const { db, edge } = options;
  const positions = new Map<string, FeedPosition>();
  /** The last change of each owner's feed the follower caught up with (its index key's time). */
  const caughtUpWith = new Map<string, number>();
  /** Where the next poll asks the index from (none: every head). */
  let askFrom: number | undefined;
  const deps = edge ? { ...edgeSyncDeps(db), ...edge } : undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();

  /** Reads the owner's new events; whether it caught up (false: stopped before an event not visible yet). */
  async function follow(owner: string): Promise<boolean> {
    for (;;) {
      const before = positions.get(owner) ?? START;
      const page = await listEvents(db, owner, { after: before, perPage: 100, types: [] });
      for (const event of page.events) {
        await options.onEvent?.(owner, event);
        if (event.kind !== 'domain' || !deps) continue;
        const payload = event.payload;
        const name = 'record' in payload ? payload.record.name : (payload.answered as { name?: unknown }).name;
        if (typeof name === 'string') await syncHost(deps, name);
      }
      positions.set(owner, page.next);
      if (page.next.id !== before.id) await options.onPosition?.(owner, page.next);
      if (!page.more) return true;
      // Stopped at an id still committing: the next poll reads on.
      if (page.next.id === before.id) return false;
    }
  }

  async function poll() {
    try {
      const began = Date.now();
      const changes = await feedChangesSince(db, askFrom);
      for (const { owner, changedAt } of changes) {
        if (caughtUpWith.get(owner) === changedAt) continue;
        if (await follow(owner)) caughtUpWith.set(owner, changedAt);
      }
      askFrom = began - CHANGE_MARGIN_MS;
    } catch (error) {
      options.log?.({ level: 'error', message: 'Edge sync failed', error: String(error) });
    }
  }

  const timer = setInterval(() => {
    round = round.then(poll);
  }, options.intervalMs ?? 500);
  round = round.then(poll);

  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await round;
    },
    /** Resolves once a whole round has run after the call (tests: everything written before is synced). */
    caughtUp: async () => {
      if (stopped) return;
      round = round.then(poll);
      await round;
    },
  };
}
