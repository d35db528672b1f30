/**
 * What spaces and domains share: id allocation, the per-owner counter, the name guards, and guarded inserts,
 * updates and deletes (each one change: `changes.ts`). Callers give and get records (`item.ts`): the items
 * that store them are made and read here.
 */
import { isDeepStrictEqual } from 'node:util';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import type { TableKey } from '#lib/data/table.ts';
import { collectionOf, type EventType, type Kind } from '#lib/kinds.ts';
import { planOf } from '#lib/platform/plans.ts';
import { commitChange, type WriteOptions } from './commit.ts';
import { allOf, type Condition } from './condition.ts';
import { ItemNotFound, NameTaken, QuotaReached } from './errors.ts';
import { type Bookkeeping, bookkeepingAttributes, itemOf, type ResourceRecord, recordOf } from './item.ts';
import { counterKey, itemKey, sequenceKey } from './keys.ts';
import type { Written } from './outcome.ts';
import type { Parts, TransactPart } from './transaction.ts';
import { assertVersion, versionCondition, versionOf } from './version.ts';

export type { Condition } from './condition.ts';

export async function getRecord<R extends ResourceRecord>(db: Db, owner: string, kind: Kind, id: number): Promise<R> {
  const { Item } = await db.client.send(
    new GetCommand({ TableName: db.tableName, Key: itemKey(owner, kind, id), ConsistentRead: true }),
  );
  if (!Item) throw new ItemNotFound();
  return recordOf<R>(kind, Item);
}

/**
 * Sets what a record keeps that the API does not show (bookkeeping: when a domain's next check is due, when a
 * webhook's run of failures began; `undefined` removes it) without a change: no new version, no event.
 * Conditional on the version read, so it never lands on a change made since; returns whether it did (false:
 * the record changed or went meanwhile, and that change kept what it read).
 */
export async function setBookkeeping(
  db: Db,
  owner: string,
  kind: Kind,
  record: ResourceRecord,
  bookkeeping: Bookkeeping,
): Promise<boolean> {
  const { id } = record;
  const unchanged = versionCondition(versionOf(record));
  const { set, remove } = bookkeepingAttributes(owner, id, bookkeeping);
  const entries = Object.entries(set);
  const clauses = [
    ...(entries.length > 0 ? [`SET ${entries.map((_, index) => `#a${index} = :a${index}`).join(', ')}`] : []),
    ...(remove.length > 0 ? [`REMOVE ${remove.map((_, index) => `#r${index}`).join(', ')}`] : []),
  ];
  try {
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(owner, kind, id),
        UpdateExpression: clauses.join(' '),
        ConditionExpression: `attribute_exists(pk) AND ${unchanged.expression}`,
        ExpressionAttributeNames: {
          ...unchanged.names,
          ...Object.fromEntries(entries.map(([name], index) => [`#a${index}`, name])),
          ...Object.fromEntries(remove.map((name, index) => [`#r${index}`, name])),
        },
        ...(entries.length > 0 || Object.keys(unchanged.values).length > 0
          ? {
              ExpressionAttributeValues: {
                ...unchanged.values,
                ...Object.fromEntries(entries.map(([, value], index) => [`:a${index}`, value])),
              },
            }
          : {}),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A name guard: the item it points to (owner and id), or null when nobody holds the name. */
export async function getGuard(db: Db, key: TableKey): Promise<{ owner: string; id: number } | null> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  return Item ? { owner: String(Item.owner), id: Number(Item.id) } : null;
}

/** An update that changes nothing: the record as it is, once If-Match holds for it (no write, no event). */
export async function unchangedRecord<R extends ResourceRecord>(
  db: Db,
  owner: string,
  kind: Kind,
  id: number,
  options: WriteOptions,
): Promise<Written<R>> {
  const current = await getRecord<R>(db, owner, kind, id);
  assertVersion(options.ifMatch, versionOf(current), options.ifNoneMatch);
  return { result: current, replayed: false };
}

/** Atomic per-owner id counter: ids increase and are never reused; a failed store leaves a gap in ids. */
async function allocateId(db: Db, owner: string, kind: Kind): Promise<number> {
  const { Attributes } = await db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: sequenceKey(owner, kind),
      UpdateExpression: 'ADD #last :one',
      ExpressionAttributeNames: { '#last': 'last' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Attributes?.last as number;
}

/** The owner's count of a kind, moved by one; an increment is conditional on the quota (at least 1). */
function counterPart(db: Db, owner: string, kind: Kind, delta: 1 | -1, quota?: number): TransactPart {
  const guardQuota = delta > 0 && quota !== undefined;
  return {
    Update: {
      TableName: db.tableName,
      Key: counterKey(owner, kind),
      UpdateExpression: 'ADD #total :delta',
      ...(guardQuota ? { ConditionExpression: 'attribute_not_exists(#total) OR #total < :quota' } : {}),
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':delta': delta, ...(guardQuota ? { ':quota': quota } : {}) },
    },
  };
}

export function guardItem(key: TableKey, owner: string, kind: Kind, id: number) {
  return { ...key, kind: `${kind}-name`, owner, id };
}

/** A name guard the item takes: it must not exist. */
export const takeGuard = (db: Db, key: TableKey, owner: string, kind: Kind, id: number): TransactPart => ({
  Put: {
    TableName: db.tableName,
    Item: guardItem(key, owner, kind, id),
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** A name guard the item takes or already holds: it must not exist, or must point to the item already. */
export const holdGuard = (db: Db, key: TableKey, owner: string, kind: Kind, id: number): TransactPart => ({
  Put: {
    TableName: db.tableName,
    Item: guardItem(key, owner, kind, id),
    ConditionExpression: 'attribute_not_exists(pk) OR (#owner = :owner AND #id = :id)',
    ExpressionAttributeNames: { '#owner': 'owner', '#id': 'id' },
    ExpressionAttributeValues: { ':owner': owner, ':id': id },
  },
});

/** A name guard the item lets go of: it must still point back to the item. */
export const releaseGuard = (db: Db, key: TableKey, owner: string, id: number): TransactPart => ({
  Delete: {
    TableName: db.tableName,
    Key: key,
    ConditionExpression: '#id = :id AND #owner = :owner',
    ExpressionAttributeNames: { '#id': 'id', '#owner': 'owner' },
    ExpressionAttributeValues: { ':id': id, ':owner': owner },
  },
});

/**
 * A name guard that must not be held by `owner` (free, or another owner's), checked without being written: a
 * domain's page must not be on one of its owner's active domains (`lib/domains/data/domains.ts`).
 */
export const guardNotHeldBy = (db: Db, key: TableKey, owner: string): TransactPart => ({
  ConditionCheck: {
    TableName: db.tableName,
    Key: key,
    ConditionExpression: 'attribute_not_exists(pk) OR #owner <> :owner',
    ExpressionAttributeNames: { '#owner': 'owner' },
    ExpressionAttributeValues: { ':owner': owner },
  },
});

/** Conditions a change checks besides its own (other items, by name), and the error when one fails. */
export type ChangeChecks = { parts: Parts; failure: (failed: ReadonlySet<string>) => Error | undefined };

/**
 * What a new item claims besides itself, by name: a name guard it writes (`put`), or a guard that must not
 * exist (`absent`: a name someone holds elsewhere, checked without being taken). Any claim that fails is a
 * taken name.
 */
export type Claims = Readonly<Record<string, { put: TableKey } | { absent: TableKey }>>;

function claimPart(db: Db, owner: string, kind: Kind, id: number, claim: Claims[string]): TransactPart {
  if ('put' in claim) return takeGuard(db, claim.put, owner, kind, id);
  return {
    ConditionCheck: { TableName: db.tableName, Key: claim.absent, ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

/**
 * Writes the record (version 1), its claims (name guards) and the counter in one change with its event and the
 * request's idempotency record: all or nothing. The id is taken once, with the change's first reads (with an
 * idempotency key, once the key is known to have no record: a replay takes none); retries reuse it.
 */
export async function insertRecord<R extends ResourceRecord>(
  db: Db,
  owner: string,
  kind: Kind,
  claims: Claims,
  build: (id: number, now: string) => Omit<R, 'version'>,
  options: WriteOptions & { checks?: ChangeChecks } = {},
): Promise<Written<R>> {
  let allocated: Promise<number | null> | undefined;
  return commitChange(db, owner, options, {
    // Taken once, in the first round trip (with the feed head); every attempt reuses it. With a key, after the
    // key's record is read (a second round trip), and none when it has one: the change then replays its answer.
    read: (recorded) => {
      allocated ??= options.idempotency
        ? recorded().then((found) => (found ? null : allocateId(db, owner, kind)))
        : allocateId(db, owner, kind);
      return allocated;
    },
    plan: (allocatedId, now, head) => {
      if (allocatedId === null) throw new Error(`A store of ${kind} planned without an id`);
      // The owner's plan, from the feed head this change is conditional on: a change of plan moves the head.
      const plan = planOf(db.plans, head.plan);
      const quota = plan.limits[collectionOf(kind)];
      // Nothing to count up to (a plan without this kind): no counter condition could say so.
      if (quota === 0) throw new QuotaReached(kind, quota, plan.name);
      const id = allocatedId;
      const record = { ...build(id, now.toISOString()), version: 1 } as R;
      const claimParts = Object.fromEntries(
        Object.entries(claims).map(([name, claim]) => [name, claimPart(db, owner, kind, id, claim)]),
      );
      return {
        parts: {
          item: recordPut(db, owner, kind, record, { expression: 'attribute_not_exists(pk)', names: {}, values: {} }),
          ...claimParts,
          counter: counterPart(db, owner, kind, 1, quota),
          ...options.checks?.parts,
        },
        event: { type: `${kind}.created`, kind, record, version: 1 },
        result: record,
        failure: (failed) => {
          if (Object.keys(claims).some((name) => failed.has(name))) return new NameTaken();
          if (failed.has('counter')) return new QuotaReached(kind, quota, plan.name);
          const checked = options.checks?.failure(failed);
          if (checked) return checked;
          return new Error(`The id counter of ${kind} handed out ${id} twice`);
        },
      };
    },
  });
}

/** The Put of the item that stores a record, on a condition (DynamoDB refuses empty names or values). */
function recordPut(db: Db, owner: string, kind: Kind, record: ResourceRecord, condition: Condition): TransactPart {
  const { expression, names, values } = condition;
  return {
    Put: {
      TableName: db.tableName,
      Item: itemOf(owner, kind, record),
      ConditionExpression: expression,
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    },
  };
}

/**
 * How an item lets go of its names when deleted: the guards it deletes, by name (each must point back to it),
 * and the state it must still be in for those to be the right guards (a domain verified meanwhile holds one
 * more).
 */
export type Release = {
  guards: Readonly<Record<string, TableKey>>;
  state?: Condition;
  /** Other writes of the delete (a domain's edge shard given back), and a failure of theirs meaning `retry`. */
  parts?: Parts;
  failure?: (failed: ReadonlySet<string>) => 'retry' | undefined;
};

/** What a change does to a record: the record after it, and the other writes it needs (a name guard that moves). */
export type RecordChange<R> = {
  record: R;
  parts?: Parts;
  /** The error for failed conditions among `parts`, if it is the client's. */
  failure?: (failed: ReadonlySet<string>) => Error | undefined;
  /** The event's type when it is not `<kind>.updated` (a domain becoming active is `domain.verified`). */
  type?: EventType;
  /** What the item must still hold besides its version (what is written to it without a change). */
  state?: Condition;
};

/** Whether `next` is `current` but for the time of the change (`updatedAt`): then nothing changes. */
const unchangedBy = <R extends ResourceRecord>(current: R, next: R) =>
  isDeepStrictEqual({ ...next, updatedAt: current.updatedAt }, current);

/**
 * Changes an item: reads it, checks If-Match (and If-None-Match) against its version, lets `apply` compute the
 * item after the change, and writes it with its event in one change conditional on the version read. A change
 * that leaves the item as it is writes nothing: no new version, no event, no idempotency record. A concurrent change
 * makes it read again, and If-Match is checked again on that read, so it always holds for the version the
 * write was conditional on.
 */
export function updateRecord<R extends ResourceRecord>(
  db: Db,
  owner: string,
  kind: Kind,
  id: number,
  apply: (current: R, now: string) => RecordChange<R>,
  options: WriteOptions = {},
): Promise<Written<R>> {
  return commitChange(db, owner, options, {
    read: () => getRecord<R>(db, owner, kind, id),
    plan: (current, now) => {
      const read = versionOf(current);
      assertVersion(options.ifMatch, read, options.ifNoneMatch);
      const at = now.toISOString();
      const next = apply(current, at);
      // A change that changes nothing (the values it sets are the ones the record has) writes nothing.
      if (next.parts === undefined && unchangedBy(current, next.record)) return { unchanged: true, result: current };
      // A new version is a new representation, whoever made it (the owner, a check, the edge): its ETag, its
      // event and its `updated_at` move together.
      const record = { ...next.record, updatedAt: at, version: read + 1 };
      const unchanged = allOf(versionCondition(read), next.state);
      return {
        parts: {
          item: recordPut(db, owner, kind, record, {
            ...unchanged,
            expression: `attribute_exists(pk) AND ${unchanged.expression}`,
          }),
          ...next.parts,
        },
        event: { type: next.type ?? `${kind}.updated`, kind, record, version: record.version },
        result: record,
        // The item moved since it was read: read it again. Otherwise the other parts say what failed.
        failure: (failed) =>
          failed.has('item')
            ? 'retry'
            : (next.failure?.(failed) ?? new Error(`Change of ${kind} ${id} failed ${[...failed].join(', ')}`)),
      };
    },
  });
}

/**
 * Deletes the record, releases its guards and decrements the counter in one change with its event (the
 * record's last state). The guards depend on the record (its name, a domain's status), so it is read first
 * and the delete is conditional on its version (and name, and the state `releaseOf` names) not having changed
 * since; a concurrent rename, verification or delete makes it read again (If-Match is checked on each read).
 */
export async function deleteRecord<R extends ResourceRecord>(
  db: Db,
  owner: string,
  kind: Kind,
  id: number,
  releaseOf: (record: R) => Release,
  options: WriteOptions = {},
): Promise<Written<R>> {
  return commitChange(db, owner, options, {
    read: () => getRecord<R>(db, owner, kind, id),
    plan: (record) => {
      const read = versionOf(record);
      assertVersion(options.ifMatch, read, options.ifNoneMatch);
      const unchanged = versionCondition(read);
      const { guards, state, parts, failure } = releaseOf(record);
      const guardParts = Object.fromEntries(
        Object.entries(guards).map(([name, key]) => [name, releaseGuard(db, key, owner, id)]),
      );
      return {
        parts: {
          item: {
            Delete: {
              TableName: db.tableName,
              Key: itemKey(owner, kind, id),
              ConditionExpression: `#name = :name AND ${unchanged.expression}${state ? ` AND (${state.expression})` : ''}`,
              ExpressionAttributeNames: { '#name': 'name', ...unchanged.names, ...state?.names },
              ExpressionAttributeValues: { ':name': record.name, ...unchanged.values, ...state?.values },
            },
          },
          ...guardParts,
          ...parts,
          counter: counterPart(db, owner, kind, -1),
        },
        event: { type: `${kind}.deleted`, kind, record, version: read + 1 },
        result: record,
        failure: (failed) =>
          failed.has('item')
            ? 'retry'
            : (failure?.(failed) ?? new Error(`A name guard of ${kind} ${id} does not point back to it`)),
      };
    },
  });
}
