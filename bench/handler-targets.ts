/**
 * Sections 2 and 3's targets, apart from the section (bench/handlers.ts runs when imported): the overhead budget,
 * the floor of a write, and the design's minimum DynamoDB work per operation. Read by the section, the report
 * and test/perf/round-trips.test.ts's reasons.
 */
export const OVERHEAD_BUDGET_MS = 1;
/**
 * The floor of a write's overhead: `storeSpace` called straight on the data layer, no handler around it (no
 * middy, no parsing, no validation, no presenter, no JSON), timed by the same harness. Every write of the feed
 * goes through that layer (the ticket, the id, the transaction with its event), so no handler's write can have
 * less overhead than this; its p99 is the tail (GC, the event loop) any write carries on this machine.
 */
export const WRITE_FLOOR = 'store-space (data layer only)';

/** The design's minimum DynamoDB work per operation, and why it cannot be less. */
export const designTargets: Record<string, { calls: number; rounds: number; reason: string }> = {
  [WRITE_FLOOR]: {
    calls: 3,
    rounds: 2,
    reason: 'The data layer of store-space alone, no handler: the same calls (the floor of a write, section 2).',
  },
  'show-space': { calls: 1, rounds: 1, reason: 'GetItem by key (owner partition + id), strongly consistent.' },
  'show-domain': { calls: 1, rounds: 1, reason: 'GetItem by key (owner partition + id), strongly consistent.' },
  'show-space (If-None-Match, 304)': {
    calls: 1,
    rounds: 1,
    reason: 'The same GetItem: the ETag is the item’s version, compared in the handler.',
  },
  'update-space': {
    calls: 3,
    rounds: 2,
    reason:
      'GetItem of the item (its event carries the whole resource after the change, and a transaction returns nothing) in parallel with GetItem of the owner’s feed head; TransactWriteItems then puts the item on the condition that its version is the one read, puts the event and moves the feed head from the value read to one more.',
  },
  'update-space (rename)': {
    calls: 3,
    rounds: 2,
    reason:
      'As an update; the transaction also deletes the old name guard and puts the new one. (Before: a failed conditional UpdateItem returned the old item, then the transaction.)',
  },
  'update-domain': {
    calls: 3,
    rounds: 2,
    reason:
      'As update-space; the "page must not point at the domain itself" check uses the name read (names never change).',
  },
  'list-spaces': {
    calls: 2,
    rounds: 1,
    reason:
      'Query for one page (Limit = per_page, from the cursor position) in parallel with GetItem of the owner counter (meta.total): one round trip of latency.',
  },
  'list-domains': {
    calls: 2,
    rounds: 1,
    reason: 'Query for one page in parallel with GetItem of the owner counter: one round trip of latency.',
  },
  'store-space': {
    calls: 3,
    rounds: 2,
    reason:
      'UpdateItem ADD on the owner sequence allocates the id (it is part of the key, and a transaction cannot return values) in parallel with GetItem of the owner’s feed head (the next event id); TransactWriteItems then puts the item, its name guard and its event, bumps the counter under the quota condition and moves the feed head, all or nothing.',
  },
  'store-space (Idempotency-Key)': {
    calls: 4,
    rounds: 3,
    reason:
      'GetItem of the key’s record in parallel with GetItem of the feed head; the id only then (UpdateItem), as a request whose key has a record is a replay, which must use up no id; then the transaction, which also puts the record (the answer, recorded with the write). A replay is the first round trip alone.',
  },
  'store-domain': {
    calls: 3,
    rounds: 2,
    reason:
      "UpdateItem for the id and GetItem of the feed head in parallel, then TransactWriteItems: item + the owner's name guard + ConditionCheck that no active domain holds the global name guard + event + counter under quota + feed head.",
  },
  'destroy-space': {
    calls: 3,
    rounds: 2,
    reason:
      "GetItem reads the item (the guard's key depends on its name, the event carries its last state) in parallel with GetItem of the feed head; TransactWriteItems deletes the item (if its version is unchanged) and its guard, puts the event, decrements the counter and moves the feed head.",
  },
  'destroy-domain': {
    calls: 3,
    rounds: 2,
    reason:
      'GetItem of the item (name, status, last state) and of the feed head in parallel, then TransactWriteItems: item (version unchanged) + the name guards its status holds + event + counter + feed head.',
  },
  'show-account': {
    calls: 2,
    rounds: 1,
    reason:
      "GetItem of the owner's feed head (its plan) in parallel with a Query of its counters (one per kind): one round trip.",
  },
  'list-events': {
    calls: 2,
    rounds: 2,
    reason:
      'GetItem of the feed head first (the events up to it are gapless), then one Query of the events after the cursor up to it; the page stops at the first id not visible yet.',
  },
  authorizer: {
    calls: 1,
    rounds: 1,
    reason:
      "GetItem of the key hash, strongly consistent; a revoked or expired key is refused once API Gateway's cached answer for it expires (the stage's authorizer cache TTL). The key's last use is recorded at most once an hour, so nearly every run only reads (the next row is the run that writes).",
  },
  'authorizer (recording last use)': {
    calls: 2,
    rounds: 2,
    reason:
      "A key's first run in an hour: after the GetItem (which tells whether its recorded use is over an hour old), a conditional UpdateItem records the use; the answer waits for it 25 ms at most.",
  },
  'authorizer (no last-use recording)': {
    calls: 1,
    rounds: 1,
    reason: 'The same authorizer with last-use recording off, to show what recording costs.',
  },
};
