/**
 * What a kind declares of its record's fields (`storedFields`, `lib/kinds.ts`) holds past the data layer: a
 * webhook stored, changed, rotated and deleted leaves events whose stored record, change feed page and bus event
 * carry none of its secret or internal fields (by name, nor a secret's value), and logs nothing of them either.
 */
import { randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { create as createPublisher } from '#functions/events/publish.ts';
import { allScopes } from '#lib/auth/rules/scopes.ts';
import { type EventRow, eventRecord } from '#lib/data/event-item.ts';
import { fieldsOfUse } from '#lib/data/item.ts';
import { EVENT_PREFIX, ownerPartition } from '#lib/data/keys.ts';
import { queryItems } from '#lib/data/query.ts';
import { presentEvent } from '#lib/feed/present.ts';
import { presentWebhook } from '#lib/webhooks/api/present.ts';
import { destroyWebhook, rotateSecret, showWebhook, storeWebhook, updateWebhook } from '#lib/webhooks/data/webhooks.ts';
import { db } from '#test/support/database.ts';

const edge = { edgeHostname: 'edge.test' };
const logged: string[] = [];

beforeEach(() => {
  for (const level of ['debug', 'info', 'warn', 'error', 'log'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(JSON.stringify(args));
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
  logged.length = 0;
});

async function eventRows(owner: string): Promise<Record<string, unknown>[]> {
  return queryItems(
    db,
    {
      TableName: db.tableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :events)',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':events': EVENT_PREFIX },
      ConsistentRead: true,
    },
    undefined,
    100,
  );
}

describe("a kind's unpublished fields", () => {
  it('declares the webhook’s signing secrets secret, and its key line and failures internal', () => {
    // Assess
    expect(fieldsOfUse('webhook', 'secret')).toEqual(['secrets']);
    expect(fieldsOfUse('webhook', 'internal').sort()).toEqual(['failingSince', 'keyLineage', 'nextCheckAt']);
  });

  it('are carried by no event of a webhook: not its stored record, the change feed, the bus, nor a log line', async () => {
    // Arrange: a webhook stored by a key of a rotation line, changed, its secret rotated, then deleted.
    const owner = `owner-${randomUUID()}`;
    const key = { lineage: `dsk_line${randomUUID().slice(0, 8)}`, scopes: allScopes };
    const hook = { name: 'https://hooks.example.com/in', events: ['space.*'], enabled: true, description: null };
    const stored = await storeWebhook(db, owner, hook, key);
    const { id } = stored.result;
    await updateWebhook(db, owner, id, { description: 'changed' }, key);
    const rotated = await rotateSecret(db, owner, id);
    const held = await showWebhook(db, owner, id);
    await destroyWebhook(db, owner, id);
    const secretValues = [...held.secrets.map((secret) => secret.value), stored.result.secrets[0]?.value ?? ''];
    expect(new Set([rotated.result.secret, ...secretValues]).size).toBe(2);
    const hidden = fieldsOfUse('webhook', 'secret', 'internal');
    // Act: the events as stored, as the feed shows them, and as the publisher puts them on the bus.
    const rows = await eventRows(owner);
    const feed = rows.map((row) => presentEvent(eventRecord(row as unknown as EventRow), edge));
    const bus = await createPublisher(edge)(
      rows.map((row) => ({
        eventName: 'INSERT',
        dynamodb: { Keys: marshall({ pk: row.pk, sk: row.sk }), NewImage: marshall(row) as never },
      })),
    );
    // Assess
    expect(rows.map((row) => row.type)).toEqual([
      'webhook.created',
      'webhook.updated',
      'webhook.updated',
      'webhook.deleted',
    ]);
    expect(bus).toHaveLength(rows.length);
    for (const row of rows) {
      const carried = Object.keys(row.resource as object).filter((field) => hidden.includes(field));
      expect(carried, `event ${String(row.eventId)}: fields declared secret or internal`).toEqual([]);
    }
    const texts = {
      stored: JSON.stringify(rows),
      feed: JSON.stringify(feed),
      bus: JSON.stringify(bus),
      logs: logged.join('\n'),
    };
    for (const [where, text] of Object.entries(texts)) {
      for (const value of [...secretValues, key.lineage])
        expect(text, `${where} carries a secret`).not.toContain(value);
    }
    // The presenter too: the webhook as shown (only a store's or a rotation's answer shows its secret, once).
    expect(JSON.stringify(presentWebhook(held))).not.toContain(held.secrets[0]?.value);
  });
});
