/**
 * Domains and their lifecycle. A stored domain is `pending`: it holds its name for its owner only (a guard in
 * the owner's partition), so several owners may each have the same name pending. Verifying it (a TXT record
 * with its token, `lib/verification.ts`) makes it `active` atomically with taking the name's global guard,
 * which at most one domain holds. Domains stored before verification existed have no `status`: they are
 * active and hold the global guard only; nothing migrates them, every function here reads them as they are.
 * Every write is a change (`changes.ts`): versioned, with its event, idempotent with a key.
 */
import type { Db } from '#lib/dynamodb.ts';
import { domainNameMatches } from '#lib/idn.ts';
import { pageHost } from '#lib/urls.ts';
import {
  holdsToken,
  newVerificationToken,
  type TxtLookup,
  VerificationMismatchError,
  verificationName,
} from '#lib/verification.ts';
import { replayIfRecorded, type WriteOptions } from './changes.ts';
import {
  deleteItem,
  getGuard,
  getItem,
  guardItem,
  insertItem,
  type ListQuery,
  listItems,
  type Release,
  type StoredItem,
  unchangedItem,
  updateItem,
} from './collection.ts';
import { type DomainStatus, statusOf } from './domain-status.ts';
import { ItemNotFound, NameTaken, type PageAttribute, PageLoopError } from './errors.ts';
import { domainNameGuardKey, foldName, ownerDomainNameGuardKey } from './keys.ts';

const kind = 'domain';

export { type DomainStatus, statusOf };

export type DomainItem = StoredItem & {
  indexPage: string | null;
  notFoundPage: string | null;
  /** Absent on domains stored before verification existed: they are active (`statusOf`). */
  status?: DomainStatus;
  /** The value of the TXT record that proves the domain; absent on those older domains. Never changes. */
  verificationToken?: string;
  /** When the domain became active (absent: pending, or active from before verification existed). */
  verifiedAt?: string;
  /** When a verification last looked the record up (absent: never). */
  lastCheckedAt?: string;
};

export type NewDomain = { name: string; indexPage: string | null; notFoundPage: string | null };
/** `null` clears a page; `undefined` leaves it unchanged. The name never changes. */
export type DomainChanges = { indexPage?: string | null; notFoundPage?: string | null };

export { type PageAttribute, PageLoopError };

const pageAttributes: readonly PageAttribute[] = ['indexPage', 'notFoundPage'];

const hostOf = pageHost;

export const showDomain = (db: Db, owner: string, id: number) => getItem<DomainItem>(db, owner, kind, id);

/** Search finds a name by its stored ASCII form or its Unicode form, computed: old items need no migration. */
const matchesName = (item: DomainItem, search: string) => domainNameMatches(item.name, search);

export const listDomains = (db: Db, owner: string, query: ListQuery) =>
  listItems<DomainItem>(db, owner, kind, query, matchesName);

/**
 * Stores a pending domain. The name is taken when the owner already has it (its guard in the owner's
 * partition), or when it is active anywhere: the global guard must not exist. That check also catches the
 * owner's own domains stored before verification existed, which hold only the global guard.
 */
export const storeDomain = (db: Db, owner: string, domain: NewDomain, options?: WriteOptions<DomainItem>) =>
  insertItem<DomainItem>(
    db,
    owner,
    kind,
    {
      ownName: { put: ownerDomainNameGuardKey(owner, domain.name) },
      activeName: { absent: domainNameGuardKey(domain.name) },
    },
    (id, now) => ({
      id,
      name: domain.name,
      fold: foldName(domain.name),
      indexPage: domain.indexPage,
      notFoundPage: domain.notFoundPage,
      status: 'pending',
      verificationToken: newVerificationToken(),
      createdAt: now,
      updatedAt: now,
    }),
    options,
  );

const statusName = { '#status': 'status' };

/**
 * What a deleted domain lets go of, as long as its status is still the one read: a pending domain its owner's
 * guard; an active one that and the global guard (freeing the name for everyone); an older active domain
 * (no status) the global guard only.
 */
function releaseOf(owner: string) {
  return (item: DomainItem): Release => {
    const global = domainNameGuardKey(item.name);
    if (item.status === undefined) {
      return {
        guards: { activeName: global },
        state: { expression: 'attribute_not_exists(#status)', names: statusName, values: {} },
      };
    }
    const own = ownerDomainNameGuardKey(owner, item.name);
    return {
      guards: item.status === 'active' ? { ownName: own, activeName: global } : { ownName: own },
      state: { expression: '#status = :status', names: statusName, values: { ':status': item.status } },
    };
  };
}

export const destroyDomain = (db: Db, owner: string, id: number, options?: WriteOptions<DomainItem>) =>
  deleteItem<DomainItem>(db, owner, kind, id, releaseOf(owner), options);

/** Looks up the TXT records at a name (`lib/dns/txt.ts`); throws a 503 error when DNS gives no answer. */
export type LookupTxt = (name: string) => Promise<TxtLookup>;

/**
 * Looks up the domain's TXT record and, when it holds the token, makes the domain active atomically with
 * taking its name's global guard (exactly one of several owners verifying one name at once wins). Throws
 * `VerificationMismatchError` when the record is missing or holds other values, `NameTaken` when another
 * domain holds the name active; either way the check is recorded (`lastCheckedAt`). An active domain is
 * checked again the same way and stays active whatever the record says. A DNS failure throws before anything
 * is written. Domains from before verification have no record to check and are answered as they are.
 *
 * With an idempotency key, a request already answered is replayed before the lookup (a retry must not fail
 * on a record removed since); only an activation records its answer: a failed check is not an outcome to
 * replay, so its write (`recordCheck`) carries no key and a retry checks again.
 */
export async function verifyDomain(
  db: Db,
  lookupTxt: LookupTxt,
  owner: string,
  id: number,
  options: WriteOptions<DomainItem> = {},
): Promise<DomainItem> {
  const [item] = await Promise.all([showDomain(db, owner, id), replayIfRecorded(db, owner, options)]);
  const token = item.verificationToken;
  if (token === undefined) return item;
  const name = verificationName(item.name);
  const lookup = await lookupTxt(name);
  const found = lookup.kind === 'found' ? lookup.values : [];
  if (!holdsToken(found, token)) {
    await recordCheck(db, owner, id);
    throw new VerificationMismatchError({ name, expected: token, found });
  }
  // The name and token never change, so one lookup serves every attempt `updateItem` makes.
  try {
    return await activate(db, owner, id, options);
  } catch (error) {
    if (error instanceof NameTaken) await recordCheck(db, owner, id);
    throw error;
  }
}

/**
 * Takes the global guard (free, or already this domain's) and marks the item active, in one change
 * (`updateItem`: conditional on the version read, version + 1, with its event). Becoming active is a
 * `domain.verified` event; checking an active domain again changes only `lastCheckedAt`: `domain.updated`.
 * The guard's condition failing means another domain holds the name: `NameTaken`.
 */
const activate = (db: Db, owner: string, id: number, options: WriteOptions<DomainItem>) =>
  updateItem<DomainItem>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const active = statusOf(current) === 'active';
      return {
        item: {
          ...current,
          status: 'active',
          verifiedAt: current.verifiedAt ?? now,
          lastCheckedAt: now,
          updatedAt: active ? current.updatedAt : now,
        },
        type: active ? 'domain.updated' : 'domain.verified',
        parts: {
          activeName: {
            Put: {
              TableName: db.tableName,
              Item: guardItem(domainNameGuardKey(current.name), owner, kind, id),
              ConditionExpression: 'attribute_not_exists(pk) OR (#owner = :owner AND #id = :id)',
              ExpressionAttributeNames: { '#owner': 'owner', '#id': 'id' },
              ExpressionAttributeValues: { ':owner': owner, ':id': id },
            },
          },
        },
        failure: (failed) => (failed.has('activeName') ? new NameTaken() : undefined),
      };
    },
    options,
  );

/**
 * Records that a check looked the record up, changing nothing else the client set. `last_checked_at` is part
 * of the domain as the API shows it, so this is a change like any other: version + 1 (a new ETag) and a
 * `domain.updated` event (the feed's last event of a domain is its current state). `updatedAt` stays: it
 * tells when the client last changed the domain, as before versions existed.
 */
const recordCheck = (db: Db, owner: string, id: number) =>
  updateItem<DomainItem>(db, owner, kind, id, (current, now) => ({ item: { ...current, lastCheckedAt: now } }));

/**
 * Updates a domain's pages (`updateItem`: read, then one transaction with the event, conditional on the
 * version read). The name never changes, so the read one is the one a page must not point at.
 */
export async function updateDomain(
  db: Db,
  owner: string,
  id: number,
  changes: DomainChanges,
  options: WriteOptions<DomainItem> = {},
): Promise<DomainItem> {
  const present = pageAttributes.filter((field) => changes[field] !== undefined);
  if (present.length === 0) {
    return unchangedItem<DomainItem>(db, owner, kind, id, options);
  }
  return updateItem<DomainItem>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const loops = present.filter((field) => changes[field] && hostOf(changes[field]) === current.name);
      if (loops.length > 0) throw new PageLoopError(loops);
      const pages = Object.fromEntries(present.map((field) => [field, changes[field]]));
      return { item: { ...current, ...pages, updatedAt: now } };
    },
    options,
  );
}

/**
 * The domain that holds a name active, across all owners (its global guard, then the item), or null. What the
 * edge serves for a host: read as it is now, so a sync never depends on the order events arrive in.
 */
export async function activeDomainByName(db: Db, name: string): Promise<DomainItem | null> {
  const guard = await getGuard(db, domainNameGuardKey(name));
  if (!guard) return null;
  const item = await showDomain(db, guard.owner, guard.id).catch((error: unknown) => {
    if (error instanceof ItemNotFound) return null;
    throw error;
  });
  return item && statusOf(item) === 'active' && item.name === name ? item : null;
}
