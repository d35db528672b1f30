/**
 * A domain's item as the data layer keeps it: its record's type (each field's use declared in `lib/kinds.ts`),
 * and the checks its writes share (its pages' size, a page on the owner's own active domains).
 */
import { type ChangeChecks, getRecord, guardNotHeldBy, type RecordChange, updateRecord } from '#lib/data/collection.ts';
import type { WriteOptions } from '#lib/data/commit.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { ItemNotFound, type PageAttribute, PageLoopError, PageOnOwnDomain, PagesTooLarge } from '#lib/data/errors.ts';
import type { FieldsDeclared, Is, ResourceRecord } from '#lib/data/item.ts';
import { domainNameGuardKey } from '#lib/data/keys.ts';
import type { CheckState } from '#lib/domains/rules/dns-records.ts';
import { shardAsRead } from '#lib/edge/data/edge-shards.ts';
import { PAGES_MAX_BYTES, type Pages, pagesBytes, pagesFit } from '#lib/edge/rules/entry.ts';
import type { DomainStatus, ServingFailure, ServingState } from '#lib/edge/rules/serving.ts';
import type { storedFields } from '#lib/kinds.ts';
import { pageHost } from '#lib/platform/urls.ts';

export const kind = 'domain';

export type DomainRecord = ResourceRecord & {
  indexPage: string | null;
  notFoundPage: string | null;
  status: DomainStatus;
  /**
   * The value of the TXT record that proves the domain. Never changes. Absent on domains stored before
   * verification existed: active for good, holding the global guard only (`upgrades.ts`).
   */
  verificationToken?: string;
  /** When the domain became active (absent: pending, or active from before verification existed). */
  verifiedAt?: string;
  /** When a verification or the hourly re-check last looked the records up (absent: never). */
  lastCheckedAt?: string;
  /** What the checks found (absent: never checked since records were kept). */
  check?: CheckState;
  /** Whether the edge serves the domain, as the edge sync last saw it (absent: not yet: `servingOf`). */
  serving?: ServingState;
  /** Why it is not served, with `serving: 'failed'`. */
  servingFailure?: ServingFailure;
  /**
   * The edge shard its host is served from (`lib/edge/data/edge-shards.ts`), chosen once when the sync first needs
   * its tenant and never moved. Absent: not placed yet (an item the sync served before shards existed is on
   * shard 0). Bookkeeping: never shown, never in events.
   */
  edgeShard?: number;
};

/** Each field's use is declared (`storedFields`, `lib/kinds.ts`): a field without one does not compile. */
export type DomainFieldsDeclared = Is<FieldsDeclared<DomainRecord, (typeof storedFields)['domain']>>;

/** An active domain as the edge serves it, with its owner (the partition it lives in). */
export type ActiveDomain = DomainRecord & { owner: string };

/** What the owner writes of a domain: its pages (its name, once, when it is stored). */
type Writable = Pick<DomainRecord, 'indexPage' | 'notFoundPage'>;
export type NewDomain = { name: string } & Writable;
/** `null` clears a page; `undefined` leaves it unchanged. The name never changes. */
export type DomainChanges = { [F in keyof Writable]?: Writable[F] };

export const pageAttributes: readonly PageAttribute[] = ['indexPage', 'notFoundPage'];
export const isPageAttribute = (field: string): field is PageAttribute =>
  (pageAttributes as readonly string[]).includes(field);

/**
 * The rules a domain's pages follow beyond each page's own (the request schemas'): none on the domain itself
 * (it would redirect to itself), and both within what the edge can store (`lib/edge/rules/entry.ts`). `set` are the
 * pages the request sets, which an error names.
 */
export function assertPages(name: string, pages: Pages, set: readonly PageAttribute[]) {
  const loops = set.filter((field) => pages[field] && pageHost(pages[field]) === name);
  if (loops.length > 0) throw new PageLoopError(loops);
  if (!pagesFit(pages)) throw new PagesTooLarge(set, pagesBytes(pages), PAGES_MAX_BYTES);
}

/**
 * The checks, inside the change's own transaction, that none of `attributes`' pages is on another of the
 * owner's active domains: a ConditionCheck on each page host's global name guard, which only an active domain
 * holds, that it is not the owner's. A page there would only redirect again, and two such pages (A's on B,
 * B's on A) would redirect visitors in a loop. Checked in the write, not read before it: a domain that becomes
 * active meanwhile makes the transaction fail, never slips past. One check per host (a transaction takes an
 * item once); a page on the domain itself is `assertPages`' to refuse. Undefined: nothing to check.
 */
export function ownDomainPageChecks(
  db: Db,
  owner: string,
  name: string,
  pages: Pages,
  attributes: readonly PageAttribute[],
): ChangeChecks | undefined {
  const byHost = new Map<string, PageAttribute[]>();
  for (const field of attributes) {
    const page = pages[field];
    const host = page ? pageHost(page) : name;
    if (host !== name) byHost.set(host, [...(byHost.get(host) ?? []), field]);
  }
  if (byHost.size === 0) return undefined;
  const hosts = [...byHost.entries()].map(([host, fields], index) => ({ part: `pageHost${index}`, host, fields }));
  return {
    parts: Object.fromEntries(
      hosts.map(({ part, host }) => [part, guardNotHeldBy(db, domainNameGuardKey(host), owner)]),
    ),
    failure: (failed) => {
      const onOwn = hosts.filter(({ part }) => failed.has(part));
      if (onOwn.length === 0) return undefined;
      return new PageOnOwnDomain(onOwn.flatMap(({ host, fields }) => fields.map((attribute) => ({ attribute, host }))));
    },
  };
}

/**
 * A change of a domain (`updateRecord`), conditional also on its `edgeShard` as read: the edge sync places a
 * domain without a change, and a whole-item write planned from an earlier read would drop the shard, leaving
 * its count one too high and the host to be placed again elsewhere.
 */
export const changeDomain = (
  db: Db,
  owner: string,
  id: number,
  apply: (current: DomainRecord, now: string) => RecordChange<DomainRecord>,
  options?: WriteOptions,
) =>
  updateRecord<DomainRecord>(
    db,
    owner,
    kind,
    id,
    (current, now) => ({ ...apply(current, now), state: shardAsRead(current.edgeShard) }),
    options,
  );

/** A domain of the owner's, as stored. */
export const showDomain = (db: Db, owner: string, id: number) => getRecord<DomainRecord>(db, owner, kind, id);

/** A read of a domain that is gone is none. */
export const nullWhenGone = (error: unknown) => {
  if (error instanceof ItemNotFound) return null;
  throw error;
};
