/**
 * The owner's account: its plan and its usage. The plan is stored on the feed head (`feed-head.ts`), which every
 * change reads and is conditional on; the usage is the counters every store and delete moves in its own
 * transaction (`COUNT#<kind>`, `collection.ts`), the very numbers the store's quota condition compares. So what
 * `/account` shows as `used` is what the next store is checked against, exactly.
 *
 * A change of plan (`setPlan`, the key tool's) is a change like any other (`changes.ts`): it moves the feed head,
 * setting the plan on it, with its event (`account.plan_changed`, the plan before and after) in one transaction
 * conditional on the head read. A store planned under the plan read before then fails its head condition and
 * plans again under the new plan: the new limit holds from the next store on. Items beyond a smaller plan's
 * limits stay; stores of that kind are refused until the owner is below it again.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { commitChange } from '#lib/data/commit.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { readFeedHead } from '#lib/data/feed-head.ts';
import { counterKey, ownerPartition } from '#lib/data/keys.ts';
import { type Collection, collectionOf, type Kind, kinds } from '#lib/kinds.ts';
import { definedPlan, type Plan, planOf } from '#lib/platform/plans.ts';

/** How many items of each kind the owner holds. */
export type Usage = Record<Collection, number>;

export type Account = {
  /** The plan that applies: the one stored, or the default. */
  plan: Plan;
  /** The plan stored for the owner (null: none, the default applies; or one the stage no longer defines). */
  storedPlan: string | null;
  usage: Usage;
};

const COUNTER_PREFIX = counterKey('', 'domain').sk.replace(/domain$/, '');

/**
 * The owner's plan and usage in one round trip: a GetItem of the feed head and a Query of the counters, in
 * parallel, both strongly consistent.
 */
export async function readAccount(db: Db, owner: string): Promise<Account> {
  const [head, counters] = await Promise.all([
    readFeedHead(db, owner),
    db.client.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
        ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':prefix': COUNTER_PREFIX },
        ConsistentRead: true,
      }),
    ),
  ]);
  const usage = Object.fromEntries(kinds.map((kind) => [collectionOf(kind), 0])) as Usage;
  for (const item of counters.Items ?? []) {
    const kind = String(item.sk).slice(COUNTER_PREFIX.length) as Kind;
    if (!kinds.includes(kind)) continue;
    const total = Number(item.total);
    usage[collectionOf(kind)] = Number.isSafeInteger(total) && total > 0 ? total : 0;
  }
  const plan = planOf(db.plans, head.plan);
  return { plan, storedPlan: head.plan ?? null, usage };
}

/** What a change of plan did: the plan before and after, and whether anything changed. */
export type PlanChange = { previous: string; plan: string; changed: boolean };

/**
 * Puts the owner on `name` (one of the stage's plans, else `UnknownPlan`): a change conditional on the feed
 * head read, with its `account.plan_changed` event. An owner already on that plan (stored, or by default)
 * changes nothing: no write, no event.
 */
export async function setPlan(db: Db, owner: string, name: string): Promise<PlanChange> {
  const plan = definedPlan(db.plans, name);
  const { result } = await commitChange<null, PlanChange>(
    db,
    owner,
    {},
    {
      read: async () => null,
      plan: (_, _now, head) => {
        const previous = planOf(db.plans, head.plan).name;
        if (previous === plan.name) return { unchanged: true, result: { previous, plan: plan.name, changed: false } };
        return {
          parts: {},
          head: { plan: plan.name },
          event: {
            type: 'account.plan_changed',
            kind: 'account',
            account: { plan: plan.name, previousPlan: previous },
          },
          result: { previous, plan: plan.name, changed: true },
          // The change has no parts of its own: only the head's condition can fail, and commitChange retries it.
          failure: () => 'retry',
        };
      },
    },
  );
  return result;
}
