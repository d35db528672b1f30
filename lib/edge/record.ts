/**
 * What the edge's key-value store holds for a host (functions/edge/viewer-request.js reads it): the compact
 * record of an active domain, or a tombstone once it is not active, each stamped with when its state was read
 * (`t`, ms), so that a sync that read an older state never overwrites a newer one. Pure.
 */
import { storedPage } from '#lib/urls.ts';

/** An active domain: its pages ('' for none: the stage's default applies). */
export type ActiveRecord = { s: 'active'; i: string; n: string; t: number };
/** A host that is not served (pending, deleted, held by nobody): kept a while so a late sync cannot revive it. */
export type Tombstone = { s: 'none'; t: number };
export type EdgeRecord = ActiveRecord | Tombstone;

/** CloudFront KeyValueStore's limit on a value; a record is far below it (pages are at most 255 characters). */
export const EDGE_VALUE_MAX_BYTES = 1024;
/** Tombstones older than this are swept: no sync takes that long. */
export const TOMBSTONE_TTL_MS = 3_600_000;

/** The record of a host, from the domain that holds it active (null: none does), read at `t`. */
export function edgeRecordOf(
  domain: { indexPage?: string | null; notFoundPage?: string | null } | null,
  t: number,
): EdgeRecord {
  if (!domain) return { s: 'none', t };
  // A page's href, so the edge's Location is valid whatever an older item holds (`storedPage`).
  return { s: 'active', i: storedPage(domain.indexPage) ?? '', n: storedPage(domain.notFoundPage) ?? '', t };
}

/** Whether two records serve the same (their times aside). */
export const sameService = (a: EdgeRecord | null, b: EdgeRecord | null): boolean =>
  JSON.stringify(a && { ...a, t: 0 }) === JSON.stringify(b && { ...b, t: 0 });

/** A stored value read back as a record (null for anything else). */
export function parseEdgeRecord(value: unknown): EdgeRecord | null {
  const record = typeof value === 'string' ? safeJson(value) : value;
  if (!record || typeof record !== 'object') return null;
  const { s, t } = record as { s?: unknown; t?: unknown };
  if (typeof t !== 'number' || (s !== 'active' && s !== 'none')) return null;
  return record as EdgeRecord;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
