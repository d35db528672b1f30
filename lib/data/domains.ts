/**
 * Domains and their lifecycle. A stored domain is `pending`: it holds its name for its owner only (a guard in
 * the owner's partition), so several owners may each have the same name pending. Verifying it (a TXT record
 * with its token, `lib/verification.ts`) makes it `active` atomically with taking the name's global guard,
 * which at most one domain holds. Domains stored before verification existed have no `status`: they are
 * active and hold the global guard only; nothing migrates them, every function here reads them as they are.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { TxtLookup } from '#lib/dns/txt.ts';
import type { Db } from '#lib/dynamodb.ts';
import { NameTakenError, NotFoundError, ServiceUnavailableError } from '#lib/errors.ts';
import { domainNameMatches } from '#lib/idn.ts';
import { pageHost } from '#lib/urls.ts';
import { holdsToken, newVerificationToken, VerificationMismatchError, verificationName } from '#lib/verification.ts';
import {
  deleteItem,
  getItem,
  guardItem,
  insertItem,
  type ListQuery,
  listItems,
  type Release,
  type StoredItem,
} from './collection.ts';
import { itemFromFailedCondition } from './condition.ts';
import { domainNameGuardKey, itemKey, ownerDomainNameGuardKey } from './keys.ts';
import { transactWrite } from './transact.ts';

const kind = 'domain';

export type DomainStatus = 'pending' | 'active';

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

export const statusOf = (item: DomainItem): DomainStatus => item.status ?? 'active';
export type NewDomain = { name: string; indexPage: string | null; notFoundPage: string | null };
/** `null` clears a page; `undefined` leaves it unchanged. The name never changes. */
export type DomainChanges = { indexPage?: string | null; notFoundPage?: string | null };

export type PageAttribute = keyof DomainChanges;
const pageAttributes: readonly PageAttribute[] = ['indexPage', 'notFoundPage'];

/** A page would point at the domain itself (so redirect to itself): `attributes` are the pages at fault. */
export class PageLoopError extends Error {
  constructor(readonly attributes: readonly PageAttribute[]) {
    super(`Page points at the domain itself: ${attributes.join(', ')}`);
    this.name = 'PageLoopError';
  }
}

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
export const storeDomain = (db: Db, owner: string, domain: NewDomain) =>
  insertItem<DomainItem>(
    db,
    owner,
    kind,
    [{ put: ownerDomainNameGuardKey(owner, domain.name) }, { absent: domainNameGuardKey(domain.name) }],
    (id, now) => ({
      id,
      name: domain.name,
      fold: domain.name,
      indexPage: domain.indexPage,
      notFoundPage: domain.notFoundPage,
      status: 'pending',
      verificationToken: newVerificationToken(),
      createdAt: now,
      updatedAt: now,
    }),
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
        guards: [global],
        state: { expression: 'attribute_not_exists(#status)', names: statusName, values: {} },
      };
    }
    const own = ownerDomainNameGuardKey(owner, item.name);
    return {
      guards: item.status === 'active' ? [own, global] : [own],
      state: { expression: '#status = :status', names: statusName, values: { ':status': item.status } },
    };
  };
}

export const destroyDomain = (db: Db, owner: string, id: number) =>
  deleteItem<DomainItem>(db, owner, kind, id, releaseOf(owner));

/** Looks up the TXT records at a name (`lib/dns/txt.ts`); throws a 503 error when DNS gives no answer. */
export type LookupTxt = (name: string) => Promise<TxtLookup>;

const MAX_VERIFY_ATTEMPTS = 5;

/**
 * Looks up the domain's TXT record and, when it holds the token, makes the domain active atomically with
 * taking its name's global guard (exactly one of several owners verifying one name at once wins). Throws
 * `VerificationMismatchError` when the record is missing or holds other values, `NameTakenError` when another
 * domain holds the name active; either way the check is recorded (`lastCheckedAt`). An active domain is
 * checked again the same way and stays active whatever the record says. A DNS failure throws before anything
 * is written. Domains from before verification have no record to check and are answered as they are.
 */
export async function verifyDomain(db: Db, lookupTxt: LookupTxt, owner: string, id: number): Promise<DomainItem> {
  let item = await showDomain(db, owner, id);
  const token = item.verificationToken;
  if (token === undefined) return item;
  const name = verificationName(item.name);
  const lookup = await lookupTxt(name);
  const found = lookup.kind === 'found' ? lookup.values : [];
  const now = new Date().toISOString();
  if (!holdsToken(found, token)) {
    await recordCheck(db, owner, id, now);
    throw new VerificationMismatchError({ name, expected: token, found });
  }
  // The name and token never change, so one lookup serves every attempt; only a concurrent update of the
  // item (its pages) makes the write read it again.
  for (let attempt = 1; attempt <= MAX_VERIFY_ATTEMPTS; attempt++) {
    const activated = await activate(db, owner, item, now);
    if (activated) return activated;
    item = await showDomain(db, owner, id);
  }
  throw new ServiceUnavailableError();
}

/**
 * Takes the global guard (free, or already this domain's) and marks the item active, in one transaction.
 * Null when the item changed or went since it was read (the caller reads it again).
 */
async function activate(db: Db, owner: string, item: DomainItem, now: string): Promise<DomainItem | null> {
  const updatedAt = statusOf(item) === 'active' ? item.updatedAt : now;
  const failed = await transactWrite(db, [
    {
      Put: {
        TableName: db.tableName,
        Item: guardItem(domainNameGuardKey(item.name), owner, kind, item.id),
        ConditionExpression: 'attribute_not_exists(pk) OR (#owner = :owner AND #id = :id)',
        ExpressionAttributeNames: { '#owner': 'owner', '#id': 'id' },
        ExpressionAttributeValues: { ':owner': owner, ':id': item.id },
      },
    },
    {
      Update: {
        TableName: db.tableName,
        Key: itemKey(owner, kind, item.id),
        UpdateExpression:
          'SET #status = :active, #verifiedAt = if_not_exists(#verifiedAt, :now), #lastCheckedAt = :now, #updatedAt = :updatedAt',
        // Unchanged since read (so the answer below is what is stored); fails too when the item is gone.
        ConditionExpression: '#updatedAt = :seen',
        ExpressionAttributeNames: {
          ...statusName,
          '#verifiedAt': 'verifiedAt',
          '#lastCheckedAt': 'lastCheckedAt',
          '#updatedAt': 'updatedAt',
        },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':now': now,
          ':updatedAt': updatedAt,
          ':seen': item.updatedAt,
        },
      },
    },
  ]);
  if (!failed) return { ...item, status: 'active', verifiedAt: item.verifiedAt ?? now, lastCheckedAt: now, updatedAt };
  if (failed[1]) return null;
  await recordCheck(db, owner, item.id, now);
  throw new NameTakenError();
}

/** Records that a check looked the record up, changing nothing else. */
async function recordCheck(db: Db, owner: string, id: number, now: string): Promise<void> {
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(owner, kind, id),
        UpdateExpression: 'SET #lastCheckedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#lastCheckedAt': 'lastCheckedAt' },
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    itemFromFailedCondition(error);
    throw new NotFoundError();
  }
}

/**
 * One conditional write: the item must exist and no new page may point at the domain's own name.
 * The stored name is only known to DynamoDB, so the loop check is part of the condition.
 */
export async function updateDomain(db: Db, owner: string, id: number, changes: DomainChanges): Promise<DomainItem> {
  const present = pageAttributes.filter((field) => changes[field] !== undefined);
  if (present.length === 0) return showDomain(db, owner, id);
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': new Date().toISOString() };
  const sets = ['#updatedAt = :updatedAt'];
  const conditions = ['attribute_exists(pk)'];
  for (const field of present) {
    const value = changes[field] as string | null;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
    if (value !== null) {
      // DynamoDB refuses an unused name, so `#name` is only declared when a page is set (not cleared).
      names['#name'] = 'name';
      values[`:${field}Host`] = hostOf(value);
      conditions.push(`#name <> :${field}Host`);
    }
  }
  try {
    const { Attributes } = await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(owner, kind, id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return Attributes as DomainItem;
  } catch (error) {
    const current = itemFromFailedCondition<DomainItem>(error);
    if (!current) throw new NotFoundError();
    const loops = present.filter((field) => changes[field] && hostOf(changes[field]) === current.name);
    throw new PageLoopError(loops);
  }
}
