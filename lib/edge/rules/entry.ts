/**
 * What the edge's key-value store holds for a host, its entry (functions/edge/viewer-request.js reads it): the
 * compact entry of an active domain, or a tombstone once it is not active, each stamped with when its state was read
 * (`t`, ms), so that a sync that read an older state never overwrites a newer one. Pure.
 */
import { storedPage } from '#lib/platform/urls.ts';

/** An active domain: its pages ('' for none: the stage's default applies). */
export type ActiveEntry = { s: 'active'; i: string; n: string; t: number };
/** A host that is not served (pending, deleted, held by nobody): kept a while so a late sync cannot revive it. */
export type Tombstone = { s: 'none'; t: number };
export type EdgeEntry = ActiveEntry | Tombstone;

/**
 * CloudFront KeyValueStore's limit on a value, in bytes ("Quotas", CloudFront Developer Guide: "Maximum size of a
 * value in a key value pair: 1 KB"): a `PutKey` over it is refused, so an entry is measured before it is sent.
 */
export const EDGE_VALUE_MAX_BYTES = 1024;
/** Tombstones older than this are swept: no sync takes that long. */
export const TOMBSTONE_TTL_MS = 3_600_000;

export type Pages = { indexPage?: string | null; notFoundPage?: string | null };

/**
 * A page as the store keeps it, and as a `Location` header carries it: the URL as WHATWG URL serializes it,
 * which is ASCII (an IDN host in punycode, the rest percent-encoded), so its size in bytes is its length; a
 * page stored before pages were normalized is read the same way (`storedPage`: its href, without credentials).
 */
export const asciiPage = (page: string | null | undefined): string => storedPage(page) ?? '';

/** The entry of a host, from the domain that holds it active (null: none does), read at `t`. */
export function edgeEntryOf(domain: Pages | null, t: number): EdgeEntry {
  if (!domain) return { s: 'none', t };
  return { s: 'active', i: asciiPage(domain.indexPage), n: asciiPage(domain.notFoundPage), t };
}

/** An entry's size as the store counts it: the bytes of its UTF-8 JSON. */
export const edgeValueBytes = (entry: EdgeEntry): number => new TextEncoder().encode(JSON.stringify(entry)).length;

/** The widest time stamp an entry carries (13 digits until the year 2286): the size an entry can reach. */
const WIDEST_TIME = 9_999_999_999_999;

/** The bytes an active domain's entry takes with these pages, at its widest. */
export const servedEntryBytes = (pages: Pages): number => edgeValueBytes(edgeEntryOf(pages, WIDEST_TIME));

/**
 * What the pages of one domain may take together, in bytes of their ASCII form: the value limit less the rest
 * of an entry at its widest (`EDGE_VALUE_MAX_BYTES - servedEntryBytes({})`, 1024 − 46). Written as a number,
 * so that what only names the limit (the API's messages) does not bundle the entry's code; a test checks it
 * against that difference (`test/unit/edge-entry.test.ts`).
 */
export const PAGES_MAX_BYTES = 978;

/** Whether a domain with these pages can be served: its entry fits a store value. */
export const pagesFit = (pages: Pages): boolean => servedEntryBytes(pages) <= EDGE_VALUE_MAX_BYTES;

/** The bytes the pages themselves take in an entry (what `PAGES_MAX_BYTES` bounds). */
export const pagesBytes = (pages: Pages): number => servedEntryBytes(pages) - servedEntryBytes({});

/** Whether two entries serve the same (their times aside). */
export const sameService = (a: EdgeEntry | null, b: EdgeEntry | null): boolean =>
  JSON.stringify(a && { ...a, t: 0 }) === JSON.stringify(b && { ...b, t: 0 });

/** A stored value read back as an entry (null for anything else). */
export function parseEdgeEntry(value: unknown): EdgeEntry | null {
  const entry = typeof value === 'string' ? safeJson(value) : value;
  if (!entry || typeof entry !== 'object') return null;
  const { s, t } = entry as { s?: unknown; t?: unknown };
  if (typeof t !== 'number' || (s !== 'active' && s !== 'none')) return null;
  return entry as EdgeEntry;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
