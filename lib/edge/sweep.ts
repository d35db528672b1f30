/**
 * The edge's sweep: a host no longer served keeps a tombstone in its shard's store (so a late sync of its older
 * state cannot revive it) and, on AWS, a disabled tenant with its managed certificate. Once the tombstone is older
 * than any sync can take (`TOMBSTONE_TTL_MS`), none of them is needed: the sweep deletes the tenant, then its
 * certificate (CloudFront leaves it in ACM: docs/deployment.md, "The sweep"), then the tombstone, each on the
 * condition that it has not changed since it was read (the tenant's ETag, the store's). A host being served
 * again meanwhile changes both, so the sweep leaves it alone; what it could not delete it tries again next pass.
 *
 * A pass goes through every shard's store page by page (ListKeys, 50 keys a page) and may take many
 * invocations: each stops starting work once its time budget is spent and keeps where it stopped in its cursor
 * (`SweepCursor`, an item in the table on AWS), and the next invocation goes on from there. The page it stopped
 * in is read again (what was swept of it is gone; the rest is looked at again, which changes nothing). A new pass
 * starts at most once every `passEveryMs` after the last one started. Shared by the AWS sweep function
 * (functions/edge/sweep.ts) and the local edge (one pass at a time, no budget).
 */

import {
  type CursorKeeper,
  type EdgeCertificates,
  type ListableEdgeStore,
  type PurgeableTenants,
  StoreChanged,
  type StorePage,
  type SweepCursor,
} from './ports.ts';
import { parseEdgeEntry, TOMBSTONE_TTL_MS } from './rules/entry.ts';

export type { CursorKeeper, SweepCursor };

/** One shard of the edge: its store, and the tenants of its distribution (absent locally: the store alone serves). */
export type SweepShard = { store: ListableEdgeStore; tenants?: PurgeableTenants };

export type SweepDeps = {
  /** Every shard, in shard order (new shards are only ever added at the end). */
  shards: readonly SweepShard[];
  /** Deletes a purged tenant's certificate (AWS: ACM). */
  certificates?: EdgeCertificates;
  cursor?: CursorKeeper;
  now?: () => number;
  /** No new host is started after this many ms of the invocation (none: no limit). */
  budgetMs?: number;
  /** How long after a pass started the next may start (a full pass is due at most this often). */
  passEveryMs?: number;
};

export type SweepResult = {
  /** Tombstones deleted (with their tenants). */
  swept: number;
  /** Old tombstones kept for now: a tenant not yet deletable, or a store that changed meanwhile. */
  kept: number;
  /** Managed certificates of deleted tenants deleted from ACM. */
  certificates: number;
  /** Store pages read in this invocation. */
  pages: number;
  /** Whether this invocation finished its pass (false: its cursor says where the next one goes on). */
  done: boolean;
  /** True when no pass was due (the last one finished less than `passEveryMs` after it started). */
  idle?: boolean;
};

/** A pass is due every hour: a tombstone waits at most an hour past its TTL. */
export const SWEEP_PASS_EVERY_MS = TOMBSTONE_TTL_MS;

export async function sweepEdge(deps: SweepDeps): Promise<SweepResult> {
  const { shards, now = Date.now } = deps;
  const started = now();
  const result: SweepResult = { swept: 0, kept: 0, certificates: 0, pages: 0, done: false };
  const saved = (await deps.cursor?.load()) ?? null;
  const waiting = await retryCertificates(deps, saved?.certificates ?? [], result);
  if (saved?.done && started - saved.passStartedAt < (deps.passEveryMs ?? SWEEP_PASS_EVERY_MS)) {
    if (waiting.length !== (saved.certificates ?? []).length) await deps.cursor?.save(withCertificates(saved, waiting));
    return { ...result, done: true, idle: true };
  }
  const fresh: SweepCursor = { shard: 0, passStartedAt: started };
  const cursor = withCertificates(saved && !saved.done ? { ...saved } : fresh, waiting);
  // Every invocation sweeps at least one host, whatever its budget: a pass always moves on.
  let progressed = false;
  const spent = () => progressed && deps.budgetMs !== undefined && now() - started >= deps.budgetMs;
  const before = started - TOMBSTONE_TTL_MS;

  while (cursor.shard < shards.length) {
    const shard = shards[cursor.shard] as SweepShard;
    if (spent()) return stopped(deps, cursor, result);
    const page: StorePage = await shard.store.page(cursor.token);
    result.pages++;
    for (const { key, value } of page.items) {
      if (spent()) return stopped(deps, cursor, result);
      await sweepKey(deps, cursor, shard, key, value, before, result);
      progressed = true;
    }
    if (page.next) cursor.token = page.next;
    else {
      cursor.shard++;
      delete cursor.token;
    }
    await deps.cursor?.save(cursor);
  }
  await deps.cursor?.save(withCertificates({ shard: 0, passStartedAt: cursor.passStartedAt, done: true }, cursor));
  return { ...result, done: true };
}

function withCertificates(cursor: SweepCursor, certificates: readonly string[] | SweepCursor): SweepCursor {
  const list = Array.isArray(certificates) ? certificates : ((certificates as SweepCursor).certificates ?? []);
  const { certificates: _, ...rest } = cursor;
  return list.length > 0 ? { ...rest, certificates: [...list] } : rest;
}

/** Deletes the certificates left waiting; returns those ACM still calls in use. */
async function retryCertificates(deps: SweepDeps, arns: readonly string[], result: SweepResult): Promise<string[]> {
  if (!deps.certificates) return [...arns];
  const waiting: string[] = [];
  for (const arn of arns) {
    const outcome = await deps.certificates.remove(arn);
    if (outcome === 'deleted') result.certificates++;
    if (outcome === 'in_use') waiting.push(arn);
  }
  return waiting;
}

async function stopped(deps: SweepDeps, cursor: SweepCursor, result: SweepResult): Promise<SweepResult> {
  await deps.cursor?.save(cursor);
  return result;
}

/** ARNs kept waiting in the cursor item, at most (about 100 bytes each: well inside an item's 400 KB). */
const MAX_WAITING_CERTIFICATES = 500;

async function sweepKey(
  deps: SweepDeps,
  cursor: SweepCursor,
  { store, tenants }: SweepShard,
  key: string,
  value: unknown,
  before: number,
  result: SweepResult,
) {
  const listed = parseEdgeEntry(value);
  if (listed?.s !== 'none' || listed.t >= before) return;
  const purged = tenants ? await tenants.purge(key) : true;
  if (!purged) {
    result.kept++;
    return;
  }
  // The tenant is gone; its certificate is not (CloudFront leaves it in the account, where ACM's quota counts it).
  if (typeof purged === 'object' && deps.certificates) {
    const outcome = await deps.certificates.remove(purged.certificateArn);
    if (outcome === 'deleted') result.certificates++;
    // A certificate list too long for one item would mean ACM stopped deleting: the rest wait for the teardown.
    if (outcome === 'in_use' && (cursor.certificates?.length ?? 0) < MAX_WAITING_CERTIFICATES) {
      cursor.certificates = [...(cursor.certificates ?? []), purged.certificateArn];
    }
  }
  // Read again, with the ETag the delete is conditional on: only the same tombstone goes.
  const { value: current, etag } = await store.read(key);
  const entry = parseEdgeEntry(current);
  if (entry?.s !== 'none' || entry.t !== listed.t) {
    result.kept++;
    return;
  }
  try {
    await store.remove(key, etag);
    result.swept++;
  } catch (error) {
    if (!(error instanceof StoreChanged)) throw error;
    result.kept++;
  }
}
