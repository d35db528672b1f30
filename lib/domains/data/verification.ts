/**
 * A domain's verification and re-check (what its DNS records show, recorded; active once its TXT record holds its
 * token, taking the name's global guard) and what the edge records of serving it.
 */

import { holdGuard, releaseGuard, setBookkeeping } from '#lib/data/collection.ts';
import { replayIfRecorded, type WriteOptions } from '#lib/data/commit.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { NameTaken, PageOnOwnDomain, VerificationMismatch } from '#lib/data/errors.ts';
import { domainNameGuardKey } from '#lib/data/keys.ts';
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
import { verificationName } from '#lib/domains/rules/verification.ts';
import { type Serving, sameServing, servingOf } from '#lib/edge/rules/serving.ts';
import {
  changeDomain,
  type DomainRecord,
  kind,
  nullWhenGone,
  ownDomainPageChecks,
  pageAttributes,
  showDomain,
} from './items.ts';

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
  changeDomain(
    db,
    owner,
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
  changeDomain(db, owner, id, (current, now) => ({ record: checked(current, check, now) }));

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
  const { result: changed } = await changeDomain(db, owner, id, (current, time) => {
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
  // One read, the change's own: a domain no longer active, or already recording this, is left as it is (a change
  // that changes nothing writes nothing).
  await changeDomain(db, owner, id, (current) => {
    if (current.status !== 'active' || sameServing(servingOf(current), serving)) return { record: current };
    const { serving: _serving, servingFailure: _failure, ...rest } = current;
    return { record: { ...rest, ...servingAttributes(serving) } };
  }).catch(nullWhenGone);
}
