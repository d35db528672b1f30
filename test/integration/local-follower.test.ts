/**
 * The local stack's follower of every owner's change feed (infra/local/edge-feed.ts) finds the owners with
 * changes in the feed-change index, never by scanning the table: a poll reads the index (one Query per shard)
 * and then only the feeds that moved; a quiet poll reads nothing else. Every DynamoDB call it makes is recorded
 * with SDK middleware on its own client.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followChanges } from '#infra/local/edge-feed.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { ownerPartition } from '#lib/data/keys.ts';
import { backfillFeedHeads } from '#lib/data/migrations/backfill-feed-heads.ts';
import { tableDefinition } from '#lib/data/table.ts';
import { storeSpace } from '#lib/spaces/data/spaces.ts';
import { config, db } from '#test/support/database.ts';

type Call = { command: string; input: Record<string, unknown> };
const calls: Call[] = [];
const watched = createDb(config);
watched.client.middlewareStack.add(
  (next, context) => async (args) => {
    calls.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
    return next(args);
  },
  { step: 'initialize', name: 'record-calls' },
);

const [quiet, busy, other] = ['quiet', 'busy', 'other'].map((name) => `${name}-${randomUUID()}`) as [
  string,
  string,
  string,
];
const seen: string[] = [];
const follower = followChanges({
  db: watched,
  intervalMs: 60_000, // the test drives the polls (caughtUp)
  onEvent: async (owner, event) => {
    seen.push(`${owner}/${event.id}`);
  },
});

/** The owners whose partition a call read (a Query's key condition, a GetItem's key). */
const partitionsRead = (list: Call[]) =>
  new Set(
    list.flatMap((call) => {
      const values = (call.input.ExpressionAttributeValues ?? {}) as Record<string, unknown>;
      const key = call.input.Key as { pk?: string } | undefined;
      return [values[':pk'], key?.pk].filter((value): value is string => typeof value === 'string');
    }),
  );

beforeAll(async () => {
  for (const owner of [quiet, busy, other]) await storeSpace(db, owner, { name: 'First', color: 1 });
  await follower.caughtUp();
});
afterAll(() => follower.stop());

describe('the local follower of the change feeds', () => {
  it('never scans the table', async () => {
    // Prepare
    calls.length = 0;
    await storeSpace(db, busy, { name: 'Second', color: 2 });
    // Act
    await follower.caughtUp();
    // Assess
    expect(calls.map((call) => call.command)).not.toContain('ScanCommand');
    expect(seen).toEqual(expect.arrayContaining([`${quiet}/1`, `${busy}/2`]));
  });

  it('reads, besides the index, only the feeds that changed', async () => {
    // Prepare
    await follower.caughtUp();
    calls.length = 0;
    await storeSpace(db, other, { name: 'Second', color: 2 });
    // Act
    await follower.caughtUp();
    // Assess: one Query per shard of the index, then the changed owner's head and events
    const onIndex = calls.filter((call) => call.input.IndexName === tableDefinition.feedChangeIndex.indexName);
    expect(onIndex).toHaveLength(tableDefinition.feedChangeIndex.shards);
    expect([...partitionsRead(calls)]).toEqual([ownerPartition(other)]);
    expect(seen).toContain(`${other}/2`);
  });

  it('reads nothing but the index when nothing changed', async () => {
    // Prepare
    await follower.caughtUp();
    calls.length = 0;
    // Act
    await follower.caughtUp();
    // Assess
    expect(calls.map((call) => call.command)).toEqual(
      Array(tableDefinition.feedChangeIndex.shards).fill('QueryCommand'),
    );
  });

  it('finds a feed head from before the index once the migration gave it its keys', async () => {
    // Prepare: a head without the index's keys, as a table from an earlier version has
    const owner = `legacy-${randomUUID()}`;
    await storeSpace(db, owner, { name: 'Old', color: 1 });
    const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
    const { partitionKey, sortKey } = tableDefinition.feedChangeIndex;
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: { pk: ownerPartition(owner), sk: 'SEQUENCE#event' },
        UpdateExpression: 'REMOVE #a, #b',
        ExpressionAttributeNames: { '#a': partitionKey, '#b': sortKey },
      }),
    );
    const fresh = followChanges({ db, intervalMs: 60_000, onEvent: async (o, e) => void seen.push(`${o}/${e.id}`) });
    await fresh.caughtUp();
    const before = seen.includes(`${owner}/1`);
    // Act
    const { added } = await backfillFeedHeads(db);
    const after = followChanges({ db, intervalMs: 60_000, onEvent: async (o, e) => void seen.push(`${o}/${e.id}`) });
    await after.caughtUp();
    await Promise.all([fresh.stop(), after.stop()]);
    // Assess
    expect(before).toBe(false);
    expect(added).toBeGreaterThanOrEqual(1);
    expect(seen).toContain(`${owner}/1`);
  });
});
