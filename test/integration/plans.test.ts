/**
 * Plans in the data layer, against DynamoDB Local: the owner's plan on its feed head, a change of plan as a
 * change (its event, conditional on the head), and a store racing a change of plan: the store, planned under the
 * plan it read, never commits past the new plan's limit (it fails its head condition and is planned again).
 * Account events fan out to the webhooks whose key may read them.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { plans } from '#infra/plans.ts';
import { readAccount, setPlan } from '#lib/account/data/account.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { QuotaReached } from '#lib/data/errors.ts';
import { listEvents } from '#lib/data/events.ts';
import { readFeedHead } from '#lib/data/feed-head.ts';
import { UnknownPlan } from '#lib/platform/plans.ts';
import { storeSpace } from '#lib/spaces/data/spaces.ts';
import { storeWebhook } from '#lib/webhooks/data/webhooks.ts';
import { fanOut } from '#lib/webhooks/dispatch.ts';
import { config } from '#test/support/database.ts';

/** A client of its own per test (the per-owner queue of `changes.ts` is per client, as a Lambda's process is). */
const planned = () => createDb({ ...config, plans: plans.dev });
const START = { after: { epoch: undefined, id: 0, since: 0 }, perPage: 100, types: [] };

describe('a change of plan', () => {
  it('is stored on the feed head with its event, once; an unknown plan is refused naming the known ones', async () => {
    // Prepare
    const db = planned();
    const owner = `owner-${randomUUID()}`;
    // Act
    const first = await setPlan(db, owner, 'pro');
    const again = await setPlan(db, owner, 'pro');
    const unknown = await setPlan(db, owner, 'gold').catch((error: unknown) => error);
    // Assess
    expect(first).toEqual({ previous: 'standard', plan: 'pro', changed: true });
    expect(again).toEqual({ previous: 'pro', plan: 'pro', changed: false });
    expect(unknown).toBeInstanceOf(UnknownPlan);
    expect((unknown as Error).message).toBe('Unknown plan "gold". The plans are: starter, standard, pro.');
    expect(await readFeedHead(db, owner)).toMatchObject({ head: 1, plan: 'pro' });
    const { events } = await listEvents(db, owner, START);
    expect(events).toEqual([
      expect.objectContaining({
        id: 1,
        type: 'account.plan_changed',
        kind: 'account',
        payload: { account: { plan: 'pro', previousPlan: 'standard' } },
      }),
    ]);
    expect((await readAccount(db, owner)).plan).toEqual({ name: 'pro', limits: plans.dev.plans.pro });
  });

  it('made while a store is in flight holds for that store: it is planned again under the new plan', async () => {
    // Prepare: three spaces on the default plan; the fourth store's transaction is held until the owner is
    // moved to starter (3 spaces) by another process.
    const db = planned();
    const operator = planned();
    const owner = `owner-${randomUUID()}`;
    for (const name of ['One', 'Two', 'Three']) await storeSpace(db, owner, { name, color: 1 });
    let moved = false;
    db.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && !moved) {
          moved = true;
          await setPlan(operator, owner, 'starter');
        }
        return next(args);
      },
      { step: 'initialize', name: 'planChangesMeanwhile' },
    );
    // Act
    const store = await storeSpace(db, owner, { name: 'Four', color: 1 }).catch((error: unknown) => error);
    // Assess
    expect(moved).toBe(true);
    expect(store).toBeInstanceOf(QuotaReached);
    expect(store).toMatchObject({ kind: 'space', quota: 3, plan: 'starter' });
    expect((await readAccount(db, owner)).usage.spaces).toBe(3);
  });

  it('reaches the webhooks whose key may read it: any read scope, not a write scope alone', async () => {
    // Prepare: webhooks directed by a key reading spaces only (account.*), by one reading everything (*), and
    // one subscribed to spaces only.
    const db = planned();
    const owner = `owner-${randomUUID()}`;
    const keyOf = async (scopes: Parameters<typeof createApiKey>[3]) => {
      const { record } = await createApiKey(db, owner, 'test', scopes);
      return { lineage: record.lineage, scopes: record.scopes };
    };
    const reader = await keyOf({ scopes: ['spaces:read', 'webhooks:write'] });
    const all = await keyOf({});
    const url = (path: string) => `https://hooks.example.com/${path}`;
    const store = (name: string, events: string[], key: typeof reader) =>
      storeWebhook(db, owner, { name, events, enabled: true, description: null }, key);
    // The store checks the URL's host only through the resolver of the HTTP layer: the data layer takes it as given.
    const account = (await store(url('account'), ['account.*'], reader)).result;
    const every = (await store(url('every'), ['*'], all)).result;
    await store(url('spaces'), ['space.*'], all);
    await setPlan(db, owner, 'starter');
    const { events } = await listEvents(db, owner, START);
    const changed = events.find((event) => event.type === 'account.plan_changed');
    // Act
    const jobs = await fanOut(db, owner, {
      id: String(changed?.id).padStart(12, '0'),
      type: 'account.plan_changed',
      created_at: changed?.createdAt as string,
      data: { plan: 'starter', previous_plan: 'standard' },
    });
    // Assess
    expect(jobs.map((job) => job.webhookId).sort()).toEqual([account.id, every.id].sort());
  });
});
