/**
 * Domains and their lifecycle. A stored domain is `pending`: it holds its name for its owner only (a guard in
 * the owner's partition), so several owners may each have the same name pending. Verifying it (a TXT record
 * with its token, `lib/domains/rules/verification.ts`) makes it `active` atomically with taking the name's global guard,
 * which at most one domain holds. Domains stored before verification existed have no `status`: they are
 * active and hold the global guard only; nothing migrates them, every function here reads them as they are.
 * Every write is a change (`changes.ts`): versioned, with its event, idempotent with a key.
 */

import {
  type ChangeChecks,
  deleteRecord,
  getGuard,
  getRecord,
  guardNotHeldBy,
  holdGuard,
  insertRecord,
  type Release,
  releaseGuard,
  setBookkeeping,
  unchangedRecord,
  updateRecord,
} from '#lib/data/collection.ts';
import { replayIfRecorded, type WriteOptions } from '#lib/data/commit.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import {
  ItemNotFound,
  NameTaken,
  type PageAttribute,
  PageLoopError,
  PageOnOwnDomain,
  PagesTooLarge,
  VerificationMismatch,
} from '#lib/data/errors.ts';
import type { FieldsDeclared, Is, ResourceRecord } from '#lib/data/item.ts';
import { domainNameGuardKey, ownerDomainNameGuardKey } from '#lib/data/keys.ts';
import { type ListQuery, listRecords } from '#lib/data/listing.ts';
import type { Written } from '#lib/data/outcome.ts';
import {
  afterCheck,
  type CheckState,
  graceOver,
  type LookupRecords,
  type RecordsCheck,
  type RouteCheck,
  recheckIntervalMs,
  txtStatus,
} from '#lib/domains/rules/dns-records.ts';
import { domainNameMatches } from '#lib/domains/rules/idn.ts';
import { newVerificationToken, verificationName } from '#lib/domains/rules/verification.ts';
import { placeDomain, shardQueue } from '#lib/edge/data/edge-shards.ts';
import { PAGES_MAX_BYTES, type Pages, pagesBytes, pagesFit } from '#lib/edge/rules/record.ts';
import {
  type DomainStatus,
  type Serving,
  type ServingFailure,
  type ServingState,
  sameServing,
  servingOf,
} from '#lib/edge/rules/serving.ts';
import type { storedFields } from '#lib/kinds.ts';
import { pageHost } from '#lib/platform/urls.ts';

const kind = 'domain';

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

const pageAttributes: readonly PageAttribute[] = ['indexPage', 'notFoundPage'];
const isPageAttribute = (field: string): field is PageAttribute =>
  (pageAttributes as readonly string[]).includes(field);

/**
 * The rules a domain's pages follow beyond each page's own (the request schemas'): none on the domain itself
 * (it would redirect to itself), and both within what the edge can store (`lib/edge/rules/record.ts`). `set` are the
 * pages the request sets, which an error names.
 */
function assertPages(name: string, pages: Pages, set: readonly PageAttribute[]) {
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
function ownDomainPageChecks(
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

export const showDomain = (db: Db, owner: string, id: number) => getRecord<DomainRecord>(db, owner, kind, id);

/** Search finds a name by its stored ASCII form or its Unicode form, computed: old items need no migration. */
const matchesName = (domain: DomainRecord, search: string) => domainNameMatches(domain.name, search);

export const listDomains = (db: Db, owner: string, query: ListQuery) =>
  listRecords<DomainRecord>(db, owner, kind, query, matchesName);

/**
 * Stores a pending domain. The name is taken when the owner already has it (its guard in the owner's
 * partition), or when it is active anywhere: the global guard must not exist. That check also catches the
 * owner's own domains stored before verification existed, which hold only the global guard.
 */
export async function storeDomain(db: Db, owner: string, domain: NewDomain, options: WriteOptions = {}) {
  const set = pageAttributes.filter((field) => domain[field]);
  assertPages(domain.name, domain, set);
  const checks = ownDomainPageChecks(db, owner, domain.name, domain, set);
  return await insertRecord<DomainRecord>(
    db,
    owner,
    kind,
    {
      ownName: { put: ownerDomainNameGuardKey(owner, domain.name) },
      activeName: { absent: domainNameGuardKey(domain.name) },
    },
    (id, now) => ({
      ...domain,
      id,
      status: 'pending',
      verificationToken: newVerificationToken(),
      createdAt: now,
      updatedAt: now,
    }),
    checks ? { ...options, checks } : options,
  );
}

/**
 * What a deleted domain lets go of, as long as it is still in the state read: a pending domain its owner's
 * guard; an active one that and the global guard (freeing the name for everyone); one stored before
 * verification existed (no token) the global guard only.
 */
function releaseOf(owner: string) {
  return (item: DomainRecord): Release => {
    const global = domainNameGuardKey(item.name);
    if (item.verificationToken === undefined) {
      return {
        guards: { activeName: global },
        state: { expression: 'attribute_not_exists(#token)', names: { '#token': 'verificationToken' }, values: {} },
      };
    }
    const own = ownerDomainNameGuardKey(owner, item.name);
    return {
      guards: item.status === 'active' ? { ownName: own, activeName: global } : { ownName: own },
      state: { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': item.status } },
    };
  };
}

export const destroyDomain = (db: Db, owner: string, id: number, options?: WriteOptions) =>
  deleteRecord<DomainRecord>(db, owner, kind, id, releaseOf(owner), options);

/**
 * When an active domain's next check is due: an interval after `now`, sooner while it waits for its DNS or its
 * certificate in the first days after it became active (`recheckIntervalMs`).
 */
const nextCheckAt = (domain: DomainRecord, now: string) =>
  new Date(Date.parse(now) + recheckIntervalMs(servingOf(domain).state, domain.verifiedAt, now)).toISOString();

/** A lookup's findings as a check: the TXT status against the token (none to check: absent), the routing record. */
const checkOf = (found: Awaited<ReturnType<LookupRecords>>, token: string | undefined): RecordsCheck => ({
  ...(token === undefined ? {} : { txt: txtStatus(found.txt, token) }),
  ...(found.route ? routeFindings(found.route) : {}),
});

const routeFindings = (route: RouteCheck) => ({ route: route.status, flattened: route.flattened });

/**
 * Looks up the domain's records and, when the TXT record holds the token, makes the domain active atomically
 * with taking its name's global guard (exactly one of several owners verifying one name at once wins). Throws
 * `VerificationMismatch` when the record is missing or holds other values, `NameTaken` when another
 * domain holds the name active; either way the check is recorded (`lastCheckedAt`, `check`). An active domain
 * is checked again the same way and stays active whatever the record says (only the hourly re-check returns
 * it to pending, after a grace period). A DNS failure of the TXT lookup throws before anything is written.
 * Domains from before verification have no record to check and are answered as they are.
 *
 * With an idempotency key, a request already answered is replayed before the lookup (a retry must not fail
 * on a record removed since); only an activation records its answer: a failed check is not an outcome to
 * replay, so its write (`recordCheck`) carries no key and a retry checks again.
 */
export async function verifyDomain(
  db: Db,
  lookupRecords: LookupRecords,
  owner: string,
  id: number,
  options: WriteOptions = {},
): Promise<Written<DomainRecord>> {
  const [item, recorded] = await Promise.all([
    showDomain(db, owner, id),
    replayIfRecorded<DomainRecord>(db, owner, options),
  ]);
  if (recorded) return recorded;
  const token = item.verificationToken;
  if (token === undefined) return { result: item, replayed: false };
  const found = await lookupRecords(item.name);
  const check = checkOf(found, token);
  if (check.txt !== 'found') {
    await recordCheck(db, owner, id, check);
    const values = found.txt.kind === 'found' ? found.txt.values : [];
    throw new VerificationMismatch({ name: verificationName(item.name), expected: token, found: values });
  }
  // The name and token never change, so one lookup serves every attempt `updateRecord` makes.
  try {
    return await activate(db, owner, id, check, options);
  } catch (error) {
    if (error instanceof NameTaken || error instanceof PageOnOwnDomain) await recordCheck(db, owner, id, check);
    throw error;
  }
}

type Check = RecordsCheck;

/** The item with a check's findings at `now`. */
const checked = (current: DomainRecord, check: Check, now: string): DomainRecord => ({
  ...current,
  lastCheckedAt: now,
  check: afterCheck(current.check ?? {}, check, now),
});

/**
 * Takes the global guard (free, or already this domain's) and marks the item active, in one change
 * (`updateRecord`: conditional on the version read, version + 1, with its event). Becoming active is a
 * `domain.verified` event, and starts the hourly re-check; checking an active domain again changes only what
 * the check found: `domain.updated`. The guard's condition failing means another domain holds the name:
 * `NameTaken`.
 */
const activate = (db: Db, owner: string, id: number, check: Check, options: WriteOptions) =>
  updateRecord<DomainRecord>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const active = current.status === 'active';
      // A domain verified again after it returned to pending is served again only once the edge says so.
      const { serving, servingFailure, ...rest } = checked(current, check, now);
      const next = {
        ...rest,
        ...(active && serving ? { serving } : {}),
        ...(active && servingFailure ? { servingFailure } : {}),
      };
      const verifiedAt = active ? (current.verifiedAt ?? now) : now;
      // Becoming active, its pages must not be on the owner's other active domains: the one rule that, with
      // the store's and the update's, keeps an owner's domains from redirecting to each other in a loop.
      const pages = active ? undefined : ownDomainPageChecks(db, owner, current.name, current, pageAttributes);
      return {
        record: {
          ...next,
          nextCheckAt: nextCheckAt({ ...next, verifiedAt }, now),
          status: 'active',
          verifiedAt,
        },
        type: active ? 'domain.updated' : 'domain.verified',
        parts: { activeName: holdGuard(db, domainNameGuardKey(current.name), owner, kind, id), ...pages?.parts },
        failure: (failed) => (failed.has('activeName') ? new NameTaken() : pages?.failure(failed)),
      };
    },
    options,
  );

/**
 * Records what a check found, changing nothing else the client set. `last_checked_at` and `records` are part
 * of the domain as the API shows it, so this is a change like any other: version + 1 (a new ETag), a new
 * `updated_at` and a `domain.updated` event (the feed's last event of a domain is its current state).
 */
const recordCheck = (db: Db, owner: string, id: number, check: Check) =>
  updateRecord<DomainRecord>(db, owner, kind, id, (current, now) => ({ record: checked(current, check, now) }));

/** Whether a domain's TXT record has been missing for the grace period (domains from before verification have none). */
const txtGraceOver = (item: DomainRecord, check: CheckState, now: string) =>
  item.verificationToken !== undefined && graceOver(check, now);

/**
 * The hourly re-check of an active domain (`lib/domains/recheck.ts` finds the due ones): looks its records up
 * and schedules the next check. What it found is a change (`updateRecord`: version + 1, `last_checked_at`, a
 * `domain.updated` event) when the domain shows something new: a record's status changed, or the domain is not
 * served yet (the event is what makes the edge sync look at its certificate again). A check that finds what the
 * last one found only moves the next check (`setBookkeeping`): same version, no event, `last_checked_at` kept,
 * so a served domain with its records in place adds nothing to the feed hour after hour. A domain whose TXT
 * record has been missing for the grace period (`TXT_GRACE_MS`, 7 days) returns to `pending` in a change: it
 * lets go of its name's global guard, leaves the index and stops being served (the edge sync follows its
 * `domain.updated`). Domains from before verification have no TXT record to keep: only their routing record
 * is checked. Returns what the domain is now, with `changed`; null for a domain that is gone or no longer
 * active (an index entry read before it changed).
 */
export async function recheckDomain(
  db: Db,
  lookupRecords: LookupRecords,
  owner: string,
  id: number,
): Promise<{ domain: DomainRecord; changed: boolean } | null> {
  const item = await showDomain(db, owner, id).catch(nullWhenGone);
  if (item?.status !== 'active') return null;
  const found = await lookupRecords(item.name);
  const check = checkOf(found, item.verificationToken);
  const at = new Date().toISOString();
  const after = checked(item, check, at).check ?? {};
  if (!hasNews(item, after) && !txtGraceOver(item, after, at)) {
    const due = nextCheckAt(item, at);
    if (await setBookkeeping(db, owner, kind, item, { nextCheckAt: due }))
      return { domain: { ...item, nextCheckAt: due }, changed: false };
  }
  const { result: changed } = await updateRecord<DomainRecord>(db, owner, kind, id, (current, time) => {
    const next = checked(current, check, time);
    if (current.status !== 'active') return { record: next };
    if (!txtGraceOver(current, next.check ?? {}, time)) {
      return { record: { ...next, nextCheckAt: nextCheckAt(next, time) } };
    }
    // Pending again: not served, and out of the due-check index.
    const { serving: _serving, servingFailure: _failure, nextCheckAt: _due, ...pending } = next;
    return {
      record: { ...pending, status: 'pending' },
      parts: { activeName: releaseGuard(db, domainNameGuardKey(current.name), owner, id) },
    };
  });
  return { domain: changed, changed: true };
}

/**
 * Whether a check shows something new, so that it is a change (with its `domain.updated`, which sends the edge
 * sync to look again): a record's status changed, or the edge has something to look at for the domain (a
 * tenant whose certificate may be issued by now; a name that points at the edge but has no tenant yet; one the
 * service had no room for). A domain waiting for a CNAME that is still missing, or one served or failed for a
 * reason its owner must fix with nothing changed, is quiet.
 */
function hasNews(item: DomainRecord, after: CheckState): boolean {
  if (after.txt !== item.check?.txt || after.route !== item.check?.route) return true;
  const serving = servingOf(item);
  // `capacity`: the service had no room for it (a quota full); each check tries again until there is.
  if (serving.state === 'failed') return serving.failure === 'capacity';
  return serving.state === 'provisioning' || (serving.state === 'waiting_for_dns' && after.route === 'found');
}

/** The serving findings as the item keeps them. */
const servingAttributes = (serving: Serving) =>
  serving.state === 'failed' ? { serving: serving.state, servingFailure: serving.failure } : { serving: serving.state };

/**
 * Records whether the edge serves an active domain (the edge sync, after it applied the domain): a change
 * (a new version and `updated_at`) with its `domain.updated` when the state (or its failure) differs, nothing
 * otherwise.
 */
export async function recordServing(db: Db, owner: string, id: number, serving: Serving): Promise<void> {
  const item = await showDomain(db, owner, id).catch(nullWhenGone);
  if (item?.status !== 'active' || sameServing(servingOf(item), serving)) return;
  await updateRecord<DomainRecord>(db, owner, kind, id, (current) => {
    const { serving: _serving, servingFailure: _failure, ...rest } = current;
    return { record: { ...rest, ...servingAttributes(serving) } };
  }).catch(nullWhenGone);
}

const nullWhenGone = (error: unknown) => {
  if (error instanceof ItemNotFound) return null;
  throw error;
};

/**
 * Updates a domain's pages (`updateRecord`: read, then one transaction with the event, conditional on the
 * version read). The name never changes, so the read one is the one a page must not point at.
 */
export async function updateDomain(
  db: Db,
  owner: string,
  id: number,
  changes: DomainChanges,
  options: WriteOptions = {},
): Promise<Written<DomainRecord>> {
  const present = (Object.keys(changes) as (keyof DomainChanges)[]).filter((field) => changes[field] !== undefined);
  if (present.length === 0) {
    return unchangedRecord<DomainRecord>(db, owner, kind, id, options);
  }
  return updateRecord<DomainRecord>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const set = Object.fromEntries(present.map((field) => [field, changes[field]]));
      const next = { ...current, ...set, updatedAt: now };
      assertPages(current.name, next, present.filter(isPageAttribute));
      // Only a page that changes is checked: an update that sends the pages the domain has writes nothing.
      const moved = present.filter(isPageAttribute).filter((field) => next[field] !== current[field]);
      const checks = ownDomainPageChecks(db, owner, current.name, next, moved);
      return checks ? { record: next, ...checks } : { record: next };
    },
    options,
  );
}

/** What the edge sync reads and records (`lib/edge/sync.ts`): the domain holding a host, and its serving state. */
export const edgeSyncDeps = (db: Db) => ({
  activeDomain: async (host: string) => {
    const domain = await activeDomainByName(db, host);
    if (!domain) return null;
    const { edgeShard } = domain;
    // `seen`: the sync recorded its serving before shards existed, so an item without a shard was served from
    // shard 0 (`capacity` came with shards: such a domain was never placed, and is placed now).
    const seen = domain.serving !== undefined && domain.servingFailure !== 'capacity';
    return { ...domain, serving: servingOf(domain), seen, ...(edgeShard === undefined ? {} : { edgeShard }) };
  },
  placeDomain: (domain: { owner: string; id: number }, options: { shards: number; capacity: number; force?: number }) =>
    placeDomain(db, domain, options),
  queue: shardQueue(db),
  recordServing: (domain: { owner: string; id: number }, serving: Serving) =>
    recordServing(db, domain.owner, domain.id, serving),
});

/**
 * The domain that holds a name active, across all owners (its global guard, then the item), or null. What the
 * edge serves for a host: read as it is now, so a sync never depends on the order events arrive in.
 */
export async function activeDomainByName(db: Db, name: string): Promise<ActiveDomain | null> {
  const guard = await getGuard(db, domainNameGuardKey(name));
  if (!guard) return null;
  const item = await showDomain(db, guard.owner, guard.id).catch(nullWhenGone);
  return item && item.status === 'active' && item.name === name ? { ...item, owner: guard.owner } : null;
}
