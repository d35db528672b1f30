/**
 * Domains and their lifecycle. A stored domain is `pending`: it holds its name for its owner only (a guard in
 * the owner's partition), so several owners may each have the same name pending. Verifying it (a TXT record
 * with its token, `lib/domains/rules/verification.ts`) makes it `active` atomically with taking the name's global guard,
 * which at most one domain holds. Domains stored before verification existed have no `status`: they are
 * active and hold the global guard only; nothing migrates them, every function here reads them as they are.
 * Every write is a change (`lib/data/commit.ts`): versioned, with its event, idempotent with a key.
 */

import { deleteRecord, getGuard, insertRecord, type Release, unchangedRecord } from '#lib/data/collection.ts';
import type { WriteOptions } from '#lib/data/commit.ts';
import { allOf } from '#lib/data/condition.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { domainNameGuardKey, ownerDomainNameGuardKey } from '#lib/data/keys.ts';
import { type ListQuery, listRecords } from '#lib/data/listing.ts';
import type { Written } from '#lib/data/outcome.ts';
import { domainNameMatches } from '#lib/domains/rules/idn.ts';
import { newVerificationToken } from '#lib/domains/rules/verification.ts';
import { placeDomain, shardQueue, shardRelease } from '#lib/edge/data/edge-shards.ts';
import { type Serving, servingOf } from '#lib/edge/rules/serving.ts';
import {
  type ActiveDomain,
  assertPages,
  changeDomain,
  type DomainChanges,
  type DomainRecord,
  isPageAttribute,
  kind,
  type NewDomain,
  nullWhenGone,
  ownDomainPageChecks,
  pageAttributes,
  showDomain,
} from './items.ts';

export type { ActiveDomain, DomainChanges, DomainFieldsDeclared, DomainRecord, NewDomain } from './items.ts';
export { showDomain } from './items.ts';
export { recheckDomain, recordServing, verifyDomain } from './verification.ts';

import { recordServing } from './verification.ts';

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
 * verification existed (no token) the global guard only. A domain placed on an edge shard also gives its place
 * back (its shard's count down by one, `shardRelease`), and every delete is conditional on `edgeShard` as read:
 * a placement committed since the read makes the delete read again, and a placement after it finds no domain.
 */
function releaseOf(db: Db, owner: string) {
  // Set once the shard's count is found at 0: the retry deletes the domain without it.
  let atFloor = false;
  return (item: DomainRecord): Release => {
    const names = namesOf(owner, item);
    const shard = shardRelease(db, item.edgeShard, atFloor);
    return {
      guards: names.guards,
      state: allOf(names.state, shard.state),
      parts: shard.parts,
      failure: (failed) => {
        if (!failed.has('shardCount')) return undefined;
        atFloor = true;
        return 'retry';
      },
    };
  };
}

/** The name guards a domain holds, and the state it must be in for them to be the ones (its status, read). */
function namesOf(owner: string, item: DomainRecord): Required<Pick<Release, 'guards' | 'state'>> {
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
}

export const destroyDomain = (db: Db, owner: string, id: number, options?: WriteOptions) =>
  deleteRecord<DomainRecord>(db, owner, kind, id, releaseOf(db, owner), options);

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
  return changeDomain(
    db,
    owner,
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
