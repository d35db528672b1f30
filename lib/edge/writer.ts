/**
 * One writer per shard at a time. Every KeyValueStore write is conditional on the version of the whole store
 * (API_kvs_PutKey, API_kvs_UpdateKeys: `IfMatch`, "The current version (ETag) of the key value store"), so two
 * syncs writing one store at once make one of them fail. Instead a sync queues its host's entry in the table
 * (`ShardQueue`: one item per host, the latest state kept, so a burst of events for one host coalesces to one
 * write), then takes the shard's lease if it is free and writes everything queued for the shard, up to 50 keys
 * per `UpdateKeys` call, and, having given the lease back, looks at the queue once more and takes the lease
 * again if something was queued meanwhile. So a sync that finds the lease held need not take it: it only reads
 * its own entry now and then (growing, jittered waits) until the holder has written it, trying the lease
 * again only after `retakeMs` (its holder may have died, or run out of budget). The store's version then only moves under its writer, save for the sweep's
 * deletes; a conflict with one is read again and retried. All within a time budget, after which the sync
 * throws (its event is retried) rather than run into the function's timeout.
 *
 * Why a lease in the table rather than an SQS FIFO queue with `MessageGroupId` = shard: the shard is known
 * only once the sync has read the domain (and placed it), after the event rule has delivered the event; the
 * table is already what every sync reads, so the lease adds no resource, and the local stack and the tests run
 * the very same code against DynamoDB Local.
 */
import { randomUUID } from 'node:crypto';
import { again, fullJitter, retrying } from '#lib/platform/retry.ts';
import { type BatchEdgeStore, type PendingWrite, type ShardQueue, StoreChanged, StoreFull } from './ports.ts';
import { type EdgeEntry, parseEdgeEntry, sameService } from './rules/entry.ts';

/**
 * UpdateKeys' batch limits: "AWS has a default quota of 50 keys or a 3 MB payload, whichever is reached first"
 * (the AWS provider's `aws_cloudfrontkeyvaluestore_keys_exclusive`, `max_batch_size`; API_kvs_UpdateKeys gives
 * no number). An entry is at most 1 KB and a key 512 bytes (CloudFront's quotas on key value stores), so 50
 * keys take under 80 KB: the key count is the limit that binds.
 */
export const UPDATE_KEYS_MAX = 50;

export type WriterSettings = {
  /** The most a sync spends getting its entry written, in ms (the function's timeout covers it). */
  budgetMs: number;
  /** How long a lease lasts unrenewed: a writer that died frees its shard after this. */
  leaseMs: number;
  /** A waiting sync's backoff between looks at its entry (growing, half jittered): base and cap, ms. */
  backoff: { baseMs: number; capMs: number };
  /** How long a holder waits, once it has the lease, for other syncs' entries to join its first batch, ms. */
  gatherMs: number;
  /** How long a waiting sync leaves the lease alone before it tries it again (its holder may have gone), ms. */
  retakeMs: number;
};

export const WRITER_SETTINGS: WriterSettings = {
  budgetMs: 30_000,
  leaseMs: 10_000,
  // A batch takes about 150 ms after its 100 ms gathering (four calls of tens of ms): a first look sooner reads
  // the entry still queued.
  backoff: { baseMs: 100, capMs: 2_000 },
  retakeMs: 3_000,
  gatherMs: 100,
};

/** Backoff between tries of a batch whose store changed under it (the sweep's deletes): full jitter, ms. */
const CONFLICT_BACKOFF = { baseMs: 50, capMs: 500 };

/** What the writer met, for the logs and the benchmark. */
export type WriterStats = {
  batches: number;
  keys: number;
  conflicts: number;
  /** Lease takes that found it held (each sync tries at once, then once every `retakeMs`). */
  waits: number;
  /** Reads of a sync's own entry, to see whether it was written. */
  reads: number;
  /** A holder taking the lease again for what was queued while it wrote. */
  retakes: number;
};
export const writerStats = (): WriterStats => ({ batches: 0, keys: 0, conflicts: 0, waits: 0, reads: 0, retakes: 0 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Thrown when the budget ran out before the host's entry was written: the event is retried. */
export class StoreBusy extends Error {
  constructor() {
    super("The edge store's writer did not get to this host within the sync's budget");
    this.name = 'StoreBusy';
  }
}

/**
 * `refused`: the store is full. `older`: the store holds a newer state of the host. `superseded`: a newer state
 * of the host was queued, which its sync applies.
 */
export type WriteResult = 'applied' | 'refused' | 'older' | 'superseded';

export type ShardWriter = { write(shard: number, host: string, entry: EdgeEntry): Promise<WriteResult> };

/** The writer over these shards' stores (by shard number) and their queues. */
export function shardWriter(
  stores: readonly BatchEdgeStore[],
  queue: ShardQueue,
  settings: WriterSettings = WRITER_SETTINGS,
  stats: WriterStats = writerStats(),
): ShardWriter {
  const delay = fullJitter(CONFLICT_BACKOFF.baseMs, CONFLICT_BACKOFF.capMs);

  /** Writes what is queued for the shard, while this sync holds its lease and has budget left. */
  async function drain(shard: number, store: BatchEdgeStore, holder: string, deadline: number) {
    while (Date.now() < deadline) {
      const batch = await queue.pending(shard, UPDATE_KEYS_MAX);
      if (batch.length === 0) return;
      if (!(await queue.takeLease(shard, holder, Date.now(), settings.leaseMs))) return;
      const outcomes = await apply(store, batch, deadline);
      await Promise.all(batch.map((write, at) => queue.settle(shard, write, outcomes[at] ?? 'applied')));
    }
  }

  /** One batch: the entries the store needs (newer than, and different from, what it holds), in one write. */
  async function apply(store: BatchEdgeStore, batch: readonly PendingWrite[], deadline: number) {
    const currents = await Promise.all(batch.map((write) => store.get(write.host)));
    const outcomes: ('applied' | 'refused' | 'older')[] = batch.map(() => 'applied');
    const puts = batch.flatMap((write, at) => {
      const value = parseEdgeEntry(write.value);
      const current = parseEdgeEntry(currents[at]);
      if (!value) return [];
      if (current && current.t > value.t) {
        outcomes[at] = 'older';
        return [];
      }
      if (sameService(current, value) || (current === null && value.s === 'none')) return [];
      return [{ key: write.host, value }];
    });
    if (puts.length === 0) return outcomes;
    try {
      await putAll(store, puts, deadline);
    } catch (error) {
      if (!(error instanceof StoreFull)) throw error;
      // All or nothing: one by one, so what fits goes in and only what does not is refused.
      for (const put of puts) {
        try {
          await putAll(store, [put], deadline);
        } catch (single) {
          if (!(single instanceof StoreFull)) throw single;
          outcomes[batch.findIndex((write) => write.host === put.key)] = 'refused';
        }
      }
    }
    return outcomes;
  }

  /** A conditional batch put, read again and retried after a conflict (the sweep deleted meanwhile). */
  const putAll = (store: BatchEdgeStore, puts: { key: string; value: EdgeEntry }[], deadline: number) =>
    retrying(
      { budgetMs: Math.max(0, deadline - Date.now()), delayMs: delay },
      async () => {
        try {
          await store.putAll(puts, await store.version());
          stats.batches++;
          stats.keys += puts.length;
          return true;
        } catch (error) {
          if (!(error instanceof StoreChanged)) throw error;
          stats.conflicts++;
          return again;
        }
      },
      () => new StoreBusy(),
    );

  /**
   * Holds the shard's lease (taken by the caller) and drains its queue; after giving the lease back it looks at
   * the queue once more and, when something was queued meanwhile, takes the lease again. A sync that queued its
   * entry and then found the lease held therefore never needs the lease: its holder, or the next one, takes its
   * entry (the entry was queued before the take that failed, so before the holder's last look).
   */
  async function hold(shard: number, store: BatchEdgeStore, holder: string, deadline: number) {
    for (;;) {
      await sleep(settings.gatherMs);
      try {
        await drain(shard, store, holder, deadline);
      } finally {
        await queue.releaseLease(shard, holder);
      }
      if (Date.now() >= deadline) return;
      if ((await queue.pending(shard, 1)).length === 0) return;
      if (!(await queue.takeLease(shard, holder, Date.now(), settings.leaseMs))) return;
      stats.retakes++;
    }
  }

  /** The n-th wait of a sync whose entry another holds: growing, half of it jittered, capped. */
  const waitMs = (n: number) => {
    const ms = Math.min(settings.backoff.capMs, settings.backoff.baseMs * 2 ** n);
    return ms / 2 + (Math.random() * ms) / 2;
  };

  return {
    async write(shard, host, entry) {
      const store = stores[shard];
      if (!store) throw new Error(`The edge has no shard ${shard}`);
      if (!(await queue.queue(shard, { host, value: JSON.stringify(entry), t: entry.t }))) return 'superseded';
      const holder = randomUUID();
      const deadline = Date.now() + settings.budgetMs;
      let tried = Number.NEGATIVE_INFINITY;
      for (let n = 0; Date.now() < deadline; n++) {
        // The lease at once, then only once its holder may have gone (died, or out of budget with work left).
        if (Date.now() - tried >= settings.retakeMs) {
          tried = Date.now();
          if (await queue.takeLease(shard, holder, tried, settings.leaseMs)) {
            await hold(shard, store, holder, deadline);
          } else {
            stats.waits++;
            await sleep(waitMs(n));
          }
        } else {
          await sleep(waitMs(n));
        }
        stats.reads++;
        const state = await queue.state(shard, host, entry.t);
        if (state !== 'queued') return state;
      }
      throw new StoreBusy();
    },
  };
}
