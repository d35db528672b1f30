/**
 * Consistency checker (a test and operations tool, not a request path): walks one owner's partition with
 * Query and reads the global domain-name guards with GetItem (no table walk), then reports every broken
 * invariant of the data model:
 *
 * - every space has exactly its own name guard, pointing back to it (same owner, same id);
 * - every domain holds its owner's name guard (in the partition) and, when active, the name's global guard,
 *   both pointing back to it; a pending domain holds no global guard; no name is active under two domains.
 *   Domains stored before verification existed (no `status`) are active and hold the global guard only;
 * - every guard points to a live item that still holds that name (a global one, to an active domain);
 * - the per-owner counters equal the number of items, and are never negative (nor above a given quota);
 * - no id is above its sequence, so a future id can never collide with a stored one;
 * - each item's keys agree with its attributes (sort key, by-name index key, folded name; a domain's status);
 * - the change feed: no event above the feed head and no id missing in its gapless range (`gaplessFrom` up to
 *   the head: tests purge nothing); each event well formed; each resource's events one version apart; each live item's last event (if it changed
 *   within the retention) of its current version and state, and no live event for a resource that is gone.
 *
 * A global domain guard is not in the owner's partition, so a guard left behind by a lost delete is only found
 * when its name is passed in `domainNames` (tests pass every name they tried to store).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { EVENT_RETENTION_DAYS, type EventRow, eventRecord } from '#lib/data/event-item.ts';
import {
  collectionPrefix,
  counterKey,
  domainNameGuardKey,
  EVENT_PREFIX,
  eventSequenceKey,
  foldName,
  itemKey,
  nameGuardPrefix,
  nameSortKey,
  ownerDomainNameGuardKey,
  ownerPartition,
  sequenceKey,
  spaceNameGuardKey,
} from '#lib/data/keys.ts';
import { paginateQuery } from '#lib/data/query.ts';
import type { TableKey } from '#lib/data/table.ts';
import { presentEvent } from '#lib/feed/present.ts';
import { eventTypes, type Kind, kinds } from '#lib/kinds.ts';
import { resources } from '#lib/registry.ts';

export type ViolationRule =
  | 'guard-without-item'
  | 'guard-mismatch'
  | 'item-without-guard'
  | 'duplicate-name'
  | 'name-active-twice'
  | 'pending-holds-name'
  | 'count-mismatch'
  | 'quota-exceeded'
  | 'id-above-sequence'
  | 'malformed-item'
  | 'event-above-sequence'
  | 'feed-gap'
  | 'malformed-event'
  | 'version-gap'
  | 'item-without-event'
  | 'event-without-item';

export type Violation = { rule: ViolationRule; key: string; detail: string };

export type ConsistencyReport = {
  owner: string;
  /** Live items per kind, as found in the partition. */
  items: Record<Kind, number>;
  violations: Violation[];
};

export type CheckOptions = {
  /** Domain names whose global guard is also checked: a guard naming this owner needs a live item. */
  domainNames?: Iterable<string>;
  /** The per-owner quota in force: a count above it is a violation. */
  maxItems?: number;
};

type Row = Record<string, unknown> & { pk: string; sk: string };

/** One count (or list) per kind of the registry. */
const perKind = <Value>(value: (kind: Kind) => Value) =>
  Object.fromEntries(kinds.map((kind) => [kind, value(kind)])) as Record<Kind, Value>;

async function partitionRows(db: Db, owner: string): Promise<Row[]> {
  const input = {
    TableName: db.tableName,
    KeyConditionExpression: '#pk = :pk',
    ExpressionAttributeNames: { '#pk': 'pk' },
    ExpressionAttributeValues: { ':pk': ownerPartition(owner) },
    ConsistentRead: true,
  };
  const rows: Row[] = [];
  for await (const page of paginateQuery(db, input)) rows.push(...(page.items as Row[]));
  return rows;
}

async function getRow(db: Db, key: { pk: string; sk: string }): Promise<Row | undefined> {
  const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }));
  return Item as Row | undefined;
}

const keyOf = (row: { pk: string; sk: string }) => `${row.pk} ${row.sk}`;

const kindOf = (row: Row): Kind | undefined => kinds.find((kind) => row.sk.startsWith(collectionPrefix(kind)));

/**
 * The guards an item must hold, and the global guard a pending domain must not. A space's guard and a domain's
 * owner guard are in the partition; an active domain's global guard is not.
 */
function guardsFor(owner: string, kind: Kind, item: Row): { held: TableKey[]; notHeld?: TableKey } {
  if (kind === 'space') return { held: [spaceNameGuardKey(owner, String(item.fold))] };
  const name = String(item.name);
  const global = domainNameGuardKey(name);
  // Stored before verification existed (no token; no status until a change wrote it active).
  if (item.verificationToken === undefined) return { held: [global] };
  const own = ownerDomainNameGuardKey(owner, name);
  return item.status === 'active' ? { held: [own, global] } : { held: [own], notHeld: global };
}

function checkItemShape(owner: string, kind: Kind, item: Row, report: (detail: string) => void) {
  const { id, name, fold } = item;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return report(`id ${String(id)} is not valid`);
  if (typeof name !== 'string' || name === '') return report('has no name');
  const expectedFold = foldName(name);
  if (fold !== expectedFold) report(`fold "${String(fold)}" should be "${expectedFold}"`);
  if (item.sk !== itemKey(owner, kind, id).sk) report(`sort key does not match id ${id}`);
  if (item.lsi1sk !== nameSortKey(kind, expectedFold, id)) report('by-name index key does not match its name');
  if (item.kind !== kind) report(`kind "${String(item.kind)}" should be "${kind}"`);
  if (kind === 'domain') checkDomainState(item, report);
}

/**
 * Stored before verification existed: no token, and no status or `active` (once a change wrote it in today's
 * shape). Otherwise a status with its token (and an active one's time).
 */
function checkDomainState(item: Row, report: (detail: string) => void) {
  const { status, verificationToken, verifiedAt } = item;
  if (verificationToken === undefined) {
    if (status !== undefined && status !== 'active') report(`status "${String(status)}" without a verification token`);
    return;
  }
  if (status !== 'pending' && status !== 'active') return report(`status "${String(status)}" is not valid`);
  if (typeof verificationToken !== 'string' || verificationToken === '') report('has no verification token');
  if (status === 'active' && typeof verifiedAt !== 'string') report('is active without verified_at');
}

/** The other owner's domain a global guard points to, when it is live, active and of this name. */
async function activeDomainOf(db: Db, guard: Row, name: string): Promise<Row | null> {
  if (typeof guard.owner !== 'string' || typeof guard.id !== 'number') return null;
  const item = await getRow(db, itemKey(guard.owner, 'domain', guard.id));
  return item && item.name === name && (item.status ?? 'active') === 'active' ? item : null;
}

/** Checks one owner's items, guards, counters and sequences. An empty list of violations means consistent. */
export async function checkConsistency(db: Db, owner: string, options: CheckOptions = {}): Promise<ConsistencyReport> {
  const violations: Violation[] = [];
  const add = (rule: ViolationRule, key: string, detail: string) => violations.push({ rule, key, detail });

  const rows = await partitionRows(db, owner);
  const bySortKey = new Map(rows.map((row) => [row.sk, row]));
  const items = perKind((): Row[] => []);
  for (const row of rows) {
    const kind = kindOf(row);
    if (kind) items[kind].push(row);
  }

  for (const kind of kinds) {
    const names = new Map<string, number>();
    let highestId = 0;
    for (const item of items[kind]) {
      const before = violations.length;
      checkItemShape(owner, kind, item, (detail) => add('malformed-item', keyOf(item), `${kind} ${detail}`));
      if (violations.length > before) continue;
      const id = item.id as number;
      highestId = Math.max(highestId, id);
      const fold = item.fold as string;
      const other = names.get(fold);
      if (other !== undefined)
        add('duplicate-name', keyOf(item), `${kind}s ${other} and ${id} share the name "${fold}"`);
      names.set(fold, id);

      const { held, notHeld } = guardsFor(owner, kind, item);
      for (const guardKey of held) {
        const global = guardKey.pk !== ownerPartition(owner);
        const guard = global ? await getRow(db, guardKey) : bySortKey.get(guardKey.sk);
        const which = global ? 'global name guard' : 'name guard';
        if (!guard) add('item-without-guard', keyOf(item), `${kind} ${id} "${fold}" has no ${which}`);
        else if (guard.id !== id || guard.owner !== owner || guard.kind !== `${kind}-name`) {
          const rival = global && guard.owner !== owner ? await activeDomainOf(db, guard, String(item.name)) : null;
          add(
            rival ? 'name-active-twice' : 'guard-mismatch',
            keyOf(guard),
            `${which} of ${kind} ${id} points to ${String(guard.kind)} ${String(guard.id)} of owner ${String(guard.owner)}` +
              (rival ? ', also active under that name' : ''),
          );
        }
      }
      if (notHeld) {
        const guard = await getRow(db, notHeld);
        if (guard && guard.owner === owner && guard.id === id) {
          add('pending-holds-name', keyOf(guard), `pending domain ${id} holds the global name "${fold}"`);
        }
      }
    }

    const counter = bySortKey.get(counterKey(owner, kind).sk);
    const total = (counter?.total as number | undefined) ?? 0;
    if (total !== items[kind].length) {
      add('count-mismatch', keyOf(counterKey(owner, kind)), `${kind} count is ${total}, items ${items[kind].length}`);
    }
    if (options.maxItems !== undefined && items[kind].length > options.maxItems) {
      add('quota-exceeded', ownerPartition(owner), `${items[kind].length} ${kind}s, quota ${options.maxItems}`);
    }
    const sequence = (bySortKey.get(sequenceKey(owner, kind).sk)?.last as number | undefined) ?? 0;
    if (highestId > sequence) {
      add('id-above-sequence', keyOf(sequenceKey(owner, kind)), `${kind} id ${highestId} above sequence ${sequence}`);
    }
  }

  // Space guards and domains' owner guards live in the partition: each must point to a live item of its name.
  const liveItem = (kind: Kind, id: unknown) =>
    typeof id === 'number' ? bySortKey.get(itemKey(owner, kind, id).sk) : undefined;
  for (const kind of kinds) {
    const prefix = nameGuardPrefix(kind);
    for (const guard of rows.filter((row) => row.sk.startsWith(prefix))) {
      const fold = guard.sk.slice(prefix.length);
      const item = liveItem(kind, guard.id);
      if (!item || item.fold !== fold) {
        add(
          'guard-without-item',
          keyOf(guard),
          `${kind} name "${fold}" is held for ${String(guard.id)}, not a live ${kind} of that name`,
        );
      }
    }
  }

  // Global domain guards: check the ones named, when they claim this owner. A live domain of that name that
  // is pending is reported above (pending-holds-name).
  for (const name of new Set(options.domainNames ?? [])) {
    const guard = await getRow(db, domainNameGuardKey(name));
    if (!guard || guard.owner !== owner) continue;
    const item = liveItem('domain', guard.id);
    if (!item || item.name !== name) {
      add(
        'guard-without-item',
        keyOf(guard),
        `domain name "${name}" is held for ${String(guard.id)}, not a live domain of that name`,
      );
    }
  }

  checkEvents(owner, rows, bySortKey, add);
  return { owner, items: perKind((kind) => items[kind].length), violations };
}

type Add = (rule: ViolationRule, key: string, detail: string) => void;

const DAY_MS = 24 * 3600 * 1000;

/** JSON with object keys sorted: DynamoDB keeps a map's entries in no particular order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, entry) =>
    entry && typeof entry === 'object' && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => a.localeCompare(b)))
      : entry,
  );

/** The checker compares presentations of one stage: any host name serves. */
const stage = { edgeHostname: 'edge.test' };
/** An item of any kind as the API shows it: its kind's presenter, from the registry. */
const presented = (kind: Kind, item: Row): unknown =>
  (resources[kind].present as (record: never, edge: typeof stage) => unknown)(item as never, stage);

/** The change feed against the items: see the rules at the top. */
function checkEvents(owner: string, rows: Row[], bySortKey: Map<string, Row>, add: Add) {
  const headItem = bySortKey.get(eventSequenceKey(owner).sk);
  // A feed from before gapless ids has only `last`; a gapless one its `head` (`lib/data/feed-head.ts`).
  const sequence = ((headItem?.head ?? headItem?.last) as number | undefined) ?? 0;
  const gaplessFrom = headItem?.head === undefined ? sequence + 1 : ((headItem.gaplessFrom as number) ?? 1);
  const eventIds = new Set(
    rows.filter((row) => row.sk.startsWith(EVENT_PREFIX)).map((row) => Number(row.sk.slice(EVENT_PREFIX.length))),
  );
  for (let id = gaplessFrom; id <= sequence; id++) {
    if (!eventIds.has(id)) add('feed-gap', keyOf(eventSequenceKey(owner)), `event ${id} of ${sequence} is missing`);
  }

  // Each resource's events, in id order (the partition's sort order).
  const history = new Map<string, Row[]>();
  for (const event of rows.filter((row) => row.sk.startsWith(EVENT_PREFIX))) {
    const id = Number(event.sk.slice(EVENT_PREFIX.length));
    const type = String(event.type);
    const kind = kinds.find((candidate) => type.startsWith(`${candidate}.`));
    let data: { id?: unknown } | undefined;
    try {
      data = presentEvent(eventRecord(event as unknown as EventRow), stage).data as { id?: unknown };
    } catch {
      data = undefined;
    }
    if (event.eventId !== id || !eventTypes.includes(type as never) || !kind || typeof data?.id !== 'number') {
      add('malformed-event', keyOf(event), `event ${id}: ${type}, data id ${String(data?.id)}`);
      continue;
    }
    if (id > sequence) add('event-above-sequence', keyOf(event), `event ${id} above the sequence ${sequence}`);
    const resource = `${kind}#${data.id}`;
    history.set(resource, [...(history.get(resource) ?? []), event]);
  }

  for (const [resource, events] of history) {
    events.forEach((event, index) => {
      const previous = events[index - 1];
      const version = event.version as number;
      const expected = previous
        ? (previous.version as number) + 1
        : event.type === `${resource.split('#')[0]}.created`
          ? 1
          : version;
      if (version !== expected) {
        add('version-gap', keyOf(event), `${resource}: version ${version} after ${String(previous?.version)}`);
      }
    });
  }

  // Each live item against its last event; each resource whose last event is not a delete against its item.
  const retention = Date.now() - EVENT_RETENTION_DAYS * DAY_MS;
  for (const kind of kinds) {
    for (const item of rows.filter((row) => kindOf(row) === kind)) {
      const version = (item.version as number | undefined) ?? 0;
      const last = history.get(`${kind}#${String(item.id)}`)?.at(-1);
      if (!last) {
        if (version > 0 && Date.parse(String(item.updatedAt)) > retention) {
          add('item-without-event', keyOf(item), `${kind} ${String(item.id)} version ${version} has no event`);
        }
        continue;
      }
      const data = canonical(presented(kind, item));
      if (
        last.type === `${kind}.deleted` ||
        last.version !== version ||
        canonical(presentEvent(eventRecord(last as unknown as EventRow), stage).data) !== data
      ) {
        add(
          'item-without-event',
          keyOf(item),
          `${kind} ${String(item.id)} version ${version}: last event ${String(last.eventId)} is ${String(last.type)} of version ${String(last.version)}`,
        );
      }
    }
  }
  for (const [resource, events] of history) {
    const last = events.at(-1) as Row;
    const [kind, id] = resource.split('#') as [Kind, string];
    if (last.type !== `${kind}.deleted` && !bySortKey.has(itemKey(owner, kind, Number(id)).sk)) {
      add('event-without-item', keyOf(last), `${resource}: last event is ${String(last.type)}, but it is gone`);
    }
  }
}

/** One line per violation, for an assertion message or a script's output. */
export const formatViolations = (report: ConsistencyReport) =>
  report.violations.map((violation) => `${report.owner}: [${violation.rule}] ${violation.key}: ${violation.detail}`);
