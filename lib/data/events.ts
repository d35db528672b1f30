/**
 * The owner's change feed, read: events after a position, oldest first, by Query on the owner's partition.
 * The writes are in `changes.ts`, which also explains why a reader that stops at the sequence never skips one.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { type FeedEvent, readEventSequence } from './changes.ts';
import { type EventRow, presentEvent } from './event-item.ts';
import { EVENT_PREFIX, eventKey, ownerPartition } from './keys.ts';

export type EventQuery = {
  /** The last event id the reader has (0: from the start). */
  after: number;
  perPage: number;
  /** Type prefixes an event must start with, each list one requirement (`[['domain.'], ['space.', 'domain.']]`). */
  types: readonly (readonly string[])[];
};

/** A page of events, and where the next page starts: after `last`, the last event read (matching or not). */
export type EventPage = { events: FeedEvent[]; last: number; more: boolean };

/** `begins_with` on the type for each requirement (any of its prefixes), all requirements together. */
function typeFilter(
  types: EventQuery['types'],
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeValues'> {
  if (types.length === 0) return {};
  const values: Record<string, string> = {};
  const clauses = types.map((prefixes, index) => {
    const any = prefixes.map((prefix, position) => {
      values[`:type${index}_${position}`] = prefix;
      return `begins_with(#type, :type${index}_${position})`;
    });
    return `(${any.join(' OR ')})`;
  });
  return { FilterExpression: clauses.join(' AND '), ExpressionAttributeValues: values };
}

/**
 * Events after `after`, oldest first, at most `perPage` of them. The owner's event sequence is read first, and
 * the Query stops there: every event up to it has committed (see `changes.ts`), so a reader that resumes after
 * the last id it was given never misses one. Two round trips: the sequence, then one Query per page of events
 * (more only when a type filter leaves a page short).
 */
export async function listEvents(db: Db, owner: string, query: EventQuery): Promise<EventPage> {
  const watermark = await readEventSequence(db, owner);
  // A requirement no type can meet (a key without a read scope the filter allows): nothing to read, ever.
  if (query.types.some((prefixes) => prefixes.length === 0)) {
    return { events: [], last: Math.max(query.after, watermark), more: false };
  }
  if (query.after >= watermark) return { events: [], last: query.after, more: false };
  const filter = typeFilter(query.types);
  const input: QueryCommandInput = {
    TableName: db.tableName,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', ...(filter.FilterExpression ? { '#type': 'type' } : {}) },
    ExpressionAttributeValues: {
      ':pk': ownerPartition(owner),
      ':from': eventKey(owner, query.after + 1).sk,
      ':to': eventKey(owner, watermark).sk,
      ...filter.ExpressionAttributeValues,
    },
    ...(filter.FilterExpression ? { FilterExpression: filter.FilterExpression } : {}),
    ConsistentRead: true,
  };
  const events: FeedEvent[] = [];
  let last = query.after;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.client.send(
      new QueryCommand({ ...input, Limit: query.perPage - events.length, ExclusiveStartKey: start }),
    );
    for (const row of (page.Items ?? []) as EventRow[]) events.push(presentEvent(row));
    start = page.LastEvaluatedKey;
    // Read up to here: the last key evaluated, matching the filter or not; past the end, the watermark.
    last = start ? Number(String(start.sk).slice(EVENT_PREFIX.length)) : watermark;
  } while (start && events.length < query.perPage);
  return { events, last, more: last < watermark };
}
