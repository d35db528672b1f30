/**
 * Locally, there is no stream and no event bus: this follows every owner's change feed instead (the feed
 * heads, found with a Scan of the local table; off the request path) and does what the bus's targets do on
 * AWS: syncs the host of every domain event, with the same `syncHost` over the same edge (the store and
 * tenants, on the local CloudFront) the AWS sync function runs, and hands every event to `onEvent` (the
 * webhook worker's fan-out). Polls every `intervalMs`, so a change reaches the edge and the webhooks within
 * about that long.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Edge } from '#functions/edge/sync.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import type { EventRecord } from '#lib/data/event-item.ts';
import { type FeedPosition, listEvents } from '#lib/data/events.ts';
import { eventSequenceKey, partitionOwner } from '#lib/data/keys.ts';
import { edgeSyncDeps } from '#lib/domains/data/domains.ts';
import { syncHost } from '#lib/edge/sync.ts';

export type EdgeFollower = { stop: () => Promise<void>; caughtUp: () => Promise<void> };

const START: FeedPosition = { epoch: undefined, id: 0, since: 0 };

export function followChanges(options: {
  db: Db;
  /** The edge to keep in line with the domains (none: domain events only go to `onEvent`). */
  edge?: Edge;
  /** Every event of every owner, in each owner's feed order, once (from the oldest kept, at start). */
  onEvent?: (owner: string, event: EventRecord) => Promise<void>;
  intervalMs?: number;
  log?: (entry: Record<string, unknown>) => void;
}): EdgeFollower {
  const { db, edge } = options;
  const positions = new Map<string, FeedPosition>();
  const deps = edge ? { ...edgeSyncDeps(db), ...edge } : undefined;
  let stopped = false;
  let round: Promise<void> = Promise.resolve();

  async function owners(): Promise<string[]> {
    const found: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.client.send(
        new ScanCommand({
          TableName: db.tableName,
          FilterExpression: '#sk = :sk',
          ProjectionExpression: '#pk',
          ExpressionAttributeNames: { '#sk': 'sk', '#pk': 'pk' },
          ExpressionAttributeValues: { ':sk': eventSequenceKey('').sk },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const owner = partitionOwner(String(item.pk));
        if (owner !== null) found.push(owner);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  }

  async function follow(owner: string) {
    for (;;) {
      const page = await listEvents(db, owner, { after: positions.get(owner) ?? START, perPage: 100, types: [] });
      for (const event of page.events) {
        await options.onEvent?.(owner, event);
        if (event.kind !== 'domain' || !deps) continue;
        const payload = event.payload;
        const name =
          'record' in payload
            ? payload.record.name
            : 'answered' in payload
              ? (payload.answered as { name?: unknown }).name
              : undefined;
        if (typeof name === 'string') await syncHost(deps, name);
      }
      positions.set(owner, page.next);
      if (!page.more) return;
    }
  }

  async function poll() {
    try {
      for (const owner of await owners()) await follow(owner);
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
