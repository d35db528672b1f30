/**
 * The change feed's guarantees on the data layer (docs/events.md): ids are gapless per owner; the reader stops
 * at the first id it cannot see and never steps over it; a cursor whose next events may have expired, from
 * another epoch, or beyond the head is refused (410); feeds and events written before gapless ids stay
 * readable, and their first change moves them over without letting an old writer leave a hole.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { FeedCursorGone } from '#lib/data/errors.ts';
import { EVENT_RETENTION_DAYS } from '#lib/data/event-item.ts';
import { type FeedPosition, HOLE_GRACE_MS, listEvents } from '#lib/data/events.ts';
import { eventKey, eventSequenceKey, MAX_ID } from '#lib/data/keys.ts';
import { setEveryFeedEpoch, setFeedEpoch } from '#lib/data/migrations/feed-epoch.ts';
import { presentEvent } from '#lib/feed/present.ts';
import { storeSpace, updateSpace } from '#lib/spaces/data/spaces.ts';
import { db, stage } from '#test/support/database.ts';

const DAY_MS = 24 * 3600 * 1000;
const START: FeedPosition = { epoch: undefined, id: 0, since: 0 };
const newOwner = () => `owner-${randomUUID()}`;
const read = (owner: string, after: FeedPosition = START, perPage = 100, now?: number) =>
  listEvents(db, owner, { after, perPage, types: [] }, now);

async function spaces(owner: string, count: number) {
  for (let index = 0; index < count; index++)
    (await storeSpace(db, owner, { name: `Space ${index}`, color: 1 })).result;
}

const removeEvent = (owner: string, id: number) =>
  db.client.send(new DeleteCommand({ TableName: db.tableName, Key: eventKey(owner, id) }));

const setHead = (owner: string, values: Record<string, unknown>) =>
  db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: eventSequenceKey(owner),
      UpdateExpression: `SET ${Object.keys(values)
        .map((name) => `#${name} = :${name}`)
        .join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(Object.keys(values).map((name) => [`#${name}`, name])),
      ExpressionAttributeValues: Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value])),
    }),
  );

/** An event past its TTL that DynamoDB has not deleted yet (TTL deletes lag by days). */
const expireEvent = (owner: string, id: number) =>
  db.client.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: eventKey(owner, id),
      UpdateExpression: 'SET #ttl = :past',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 60 },
    }),
  );

const gone = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(FeedCursorGone);
  return (error as FeedCursorGone).reason;
};

describe('event ids', () => {
  it('go up by one per change, from 1, and the page ends at the head', async () => {
    // Prepare
    const owner = newOwner();
    await spaces(owner, 4);
    // Act
    const page = await read(owner);
    // Assess
    expect(page.events.map((event) => event.id)).toEqual([1, 2, 3, 4]);
    expect(page.next).toMatchObject({ id: 4 });
    expect(page.more).toBe(false);
  });

  it('name the epoch a new feed took with its first change, carried by every cursor', async () => {
    // Prepare
    const owner = newOwner();
    const before = Date.now();
    await spaces(owner, 1);
    // Act
    const { next } = await read(owner);
    // Assess
    expect(next.epoch).toBeGreaterThanOrEqual(before);
    expect(next.epoch).toBeLessThanOrEqual(Date.now());
  });
});

describe('a missing id', () => {
  it('right after a commit is a change becoming visible: the page stops before it and resumes there', async () => {
    // Prepare: event 3 of 5 not visible yet (the head was just moved).
    const owner = newOwner();
    await spaces(owner, 5);
    const { Item: third } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: eventKey(owner, 3) }));
    await removeEvent(owner, 3);
    // Act
    const page = await read(owner);
    await db.client.send(new PutCommand({ TableName: db.tableName, Item: third }));
    const resumed = await read(owner, page.next);
    // Assess: never stepped over, and nothing lost.
    expect(page.events.map((event) => event.id)).toEqual([1, 2]);
    expect(page.more).toBe(true);
    expect(resumed.events.map((event) => event.id)).toEqual([3, 4, 5]);
  });

  it('long after the last commit, for a recent cursor, is a fault: logged with the owner and id, never stepped over', async () => {
    // Prepare
    const owner = newOwner();
    await spaces(owner, 3);
    await removeEvent(owner, 2);
    await setHead(owner, { committedAt: Date.now() - 2 * HOLE_GRACE_MS });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Act
    const first = await read(owner);
    const again = await read(owner, first.next);
    const logged = errors.mock.calls.map(([entry]) => entry);
    errors.mockRestore();
    // Assess
    expect(first.events.map((event) => event.id)).toEqual([1]);
    expect(again.events).toEqual([]);
    expect(again.next.id).toBe(1);
    expect(logged).toContainEqual(expect.objectContaining({ message: 'Change feed hole', owner, eventId: 2 }));
  });

  it('for a cursor older than the retention may be an expired event: 410, not a silent skip', async () => {
    // Prepare: events 1-3; the reader stopped after 1 long ago, and event 2 has gone with TTL since.
    const owner = newOwner();
    await spaces(owner, 3);
    await removeEvent(owner, 2);
    await setHead(owner, { committedAt: Date.now() - DAY_MS });
    const { next } = await read(owner, START, 1);
    const stale = { ...next, since: Date.now() - (EVENT_RETENTION_DAYS + 1) * DAY_MS };
    // Act + Assess
    expect(await gone(read(owner, stale))).toBe('expired');
  });

  it('from the start is where the kept events begin: expired ones are skipped, whether TTL deleted them or not', async () => {
    // Prepare: events 1 and 2 past their TTL (2 not deleted yet), 3 kept.
    const owner = newOwner();
    await spaces(owner, 3);
    await removeEvent(owner, 1);
    await expireEvent(owner, 2);
    await setHead(owner, { committedAt: Date.now() - DAY_MS });
    // Act
    const page = await read(owner);
    // Assess
    expect(page.events.map((event) => event.id)).toEqual([3]);
  });

  it('past its TTL but not yet deleted counts as gone for a cursor before it', async () => {
    // Prepare
    const owner = newOwner();
    await spaces(owner, 2);
    const { next } = await read(owner, START, 1);
    await expireEvent(owner, 2);
    await setHead(owner, { committedAt: Date.now() - DAY_MS });
    // Act + Assess
    expect(await gone(read(owner, { ...next, since: 0 }))).toBe('expired');
  });
});

describe('a cursor of another feed', () => {
  it('from another epoch, or beyond the head, is refused; a bare id is valid in any epoch', async () => {
    // Prepare
    const owner = newOwner();
    await spaces(owner, 3);
    const { next } = await read(owner, START, 2);
    // Act + Assess
    expect(await gone(read(owner, { ...next, epoch: 1 }))).toBe('epoch');
    expect(await gone(read(owner, { ...next, id: 9 }))).toBe('epoch');
    expect((await read(owner, { epoch: undefined, id: 2, since: 0 })).events.map((event) => event.id)).toEqual([3]);
  });

  it('after the runbook sets a new epoch (a restored table), every earlier cursor is refused', async () => {
    // Prepare
    const owner = newOwner();
    await spaces(owner, 2);
    const { next } = await read(owner, START, 1);
    // Act
    const epoch = await setFeedEpoch(db, owner);
    // Assess
    expect(await gone(read(owner, next))).toBe('epoch');
    const restarted = await read(owner);
    expect(restarted.events.map((event) => event.id)).toEqual([1, 2]);
    expect(restarted.next.epoch).toBe(epoch);
    expect(epoch).toBeGreaterThan(next.epoch as number);
  });

  it('the runbook step reaches every feed of the table, and no owner without one', async () => {
    // Prepare
    const owners = [newOwner(), newOwner()];
    for (const owner of owners) await spaces(owner, 1);
    const before = await Promise.all(owners.map(async (owner) => (await read(owner)).next));
    // Act
    const moved = await setEveryFeedEpoch(db);
    // Assess
    expect(moved).toBeGreaterThanOrEqual(owners.length);
    for (const [index, owner] of owners.entries()) {
      expect(await gone(read(owner, before[index] as FeedPosition))).toBe('epoch');
    }
    expect(await setFeedEpoch(db, newOwner())).toBeNull();
  });
});

describe('a feed from before gapless ids', () => {
  /** A ticket feed as the earlier code left it: `last` only, events 2 and 5 with ids 3 and 4 never used. */
  async function ticketFeed(owner: string) {
    const answered = (id: number) => ({ id, name: `Old ${id}`, color: 1, created_at: '2026-01-01T00:00:00.000Z' });
    for (const id of [2, 5]) {
      await db.client.send(
        new PutCommand({
          TableName: db.tableName,
          Item: {
            ...eventKey(owner, id),
            kind: 'event',
            eventId: id,
            type: 'space.created',
            createdAt: new Date().toISOString(),
            data: JSON.stringify(answered(id)),
            version: 1,
            ttl: Math.floor(Date.now() / 1000) + 3600,
          },
        }),
      );
    }
    await db.client.send(new PutCommand({ TableName: db.tableName, Item: { ...eventSequenceKey(owner), last: 5 } }));
    return answered;
  }

  it('is read as it is, its gaps stepped over, its events as they were answered', async () => {
    // Prepare
    const owner = newOwner();
    const answered = await ticketFeed(owner);
    // Act
    const page = await read(owner);
    // Assess
    expect(page.events.map((event) => presentEvent(event, stage))).toEqual([
      expect.objectContaining({ id: '000000000002', data: answered(2) }),
      expect.objectContaining({ id: '000000000005', data: answered(5) }),
    ]);
    expect(page.next).toMatchObject({ epoch: 1, id: 5 });
    expect(page.more).toBe(false);
  });

  it('moves over with its first change: the next id follows the last, and a writer of ticket ids can no longer commit', async () => {
    // Prepare
    const owner = newOwner();
    await ticketFeed(owner);
    const { next } = await read(owner);
    // Act
    await spaces(owner, 1);
    const page = await read(owner, next);
    const oldWriter = db.client.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: db.tableName,
              Key: eventSequenceKey(owner),
              UpdateExpression: 'SET #last = :ticket',
              ConditionExpression: 'attribute_not_exists(#last) OR #last < :ticket',
              ExpressionAttributeNames: { '#last': 'last' },
              ExpressionAttributeValues: { ':ticket': 9 },
            },
          },
        ],
      }),
    );
    // Assess
    expect(page.events.map((event) => event.id)).toEqual([6]);
    expect(page.next.epoch).toBe(1);
    await expect(oldWriter).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    const { events } = await read(owner);
    expect(events.map((event) => event.id)).toEqual([2, 5, 6]);
    expect(MAX_ID).toBeGreaterThan(9);
  });

  it('a change of an item stored before versions and events existed is event 1 of a new feed', async () => {
    // Prepare
    const owner = newOwner();
    const [space] = [(await storeSpace(db, owner, { name: 'Kept', color: 2 })).result];
    await removeEvent(owner, 1);
    await db.client.send(new DeleteCommand({ TableName: db.tableName, Key: eventSequenceKey(owner) }));
    // Act
    await updateSpace(db, owner, space?.id as number, { color: 3 });
    // Assess
    expect((await read(owner)).events.map((event) => [event.id, event.type])).toEqual([[1, 'space.updated']]);
  });
});

describe('an event’s resource', () => {
  it('is the record as the data layer returns it: no storage attribute is a stored format', async () => {
    // Prepare
    const owner = newOwner();
    // Act
    const { result: space } = await storeSpace(db, owner, { name: 'Plain record', color: 4 });
    const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: eventKey(owner, 1) }));
    // Assess
    expect(Item?.resource).toEqual(space);
  });

  it('written with storage attributes (before records) reads as the record and is shown alike', async () => {
    // Prepare: the item's attributes but its keys, as events carried them before.
    const owner = newOwner();
    const { result: space } = await storeSpace(db, owner, { name: 'Older event', color: 3 });
    const { Item } = await db.client.send(new GetCommand({ TableName: db.tableName, Key: eventKey(owner, 1) }));
    const storage = { kind: 'space', fold: 'older event' };
    await db.client.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...Item, resource: { ...space, kind: storage.kind, fold: storage.fold } },
      }),
    );
    // Act
    const page = await read(owner);
    // Assess
    const [event] = page.events;
    expect(event?.payload).toEqual({ record: space });
    expect(event && presentEvent(event, stage).data).toEqual({
      id: space.id,
      name: 'Older event',
      color: 3,
      created_at: space.createdAt,
      updated_at: space.updatedAt,
    });
  });
});
