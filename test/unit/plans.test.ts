/** Plans and the account's events, pure: the definition's checks, the plan an owner follows, who reads `account.*`. */
import { describe, expect, it } from 'vitest';
import { plans } from '#infra/plans.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { advanceHead } from '#lib/data/feed-head.ts';
import { largestLimit, parsePlans, planOf, standardLimits, standardPlans } from '#lib/platform/plans.ts';
import {
  assertReadable,
  isEventPattern,
  readsEvent,
  subscribedPatterns,
  unreadablePatterns,
} from '#lib/webhooks/rules/event-patterns.ts';

describe('the stages’ plans', () => {
  it('have the limits of before plans as the default plan, standard, on every stage', () => {
    // Assess
    for (const stagePlans of Object.values(plans)) {
      expect(stagePlans.default).toBe('standard');
      expect(stagePlans.plans.standard).toEqual({ domains: 10_000, spaces: 10_000, webhooks: 10 });
      expect(Object.keys(stagePlans.plans)).toEqual(['starter', 'standard', 'pro']);
    }
    expect(standardPlans).toEqual({ default: 'standard', plans: { standard: standardLimits } });
  });

  it.each([
    [{ default: 'a', plans: {} }, 'must define at least one plan'],
    [{ default: 'b', plans: { a: standardLimits } }, '"default" must name one of the plans (a)'],
    [{ default: 'a', plans: { a: { ...standardLimits, keys: 3 } } }, 'plan "a" has unknown limits: keys'],
    [{ default: 'a', plans: { a: { ...standardLimits, spaces: 2_000_000 } } }, 'from 0 to 1000000'],
    [{ default: 'a', plans: { a: standardLimits }, extra: 1 }, 'has unknown fields: extra'],
  ])('refuse %j', (definition, message) => {
    // Act / Assess
    expect(() => parsePlans(definition)).toThrow(message);
  });

  it('give an owner its stored plan, or the default without one or for one the stage no longer defines', () => {
    // Assess
    expect(planOf(plans.dev, 'pro')).toEqual({ name: 'pro', limits: plans.dev.plans.pro });
    expect(planOf(plans.dev, undefined)).toEqual({ name: 'standard', limits: standardLimits });
    expect(planOf(plans.dev, 'gold')).toEqual({ name: 'standard', limits: standardLimits });
    expect(planOf(plans.dev, 'constructor')).toEqual({ name: 'standard', limits: standardLimits });
    expect(largestLimit(plans.dev, 'webhooks')).toBe(50);
  });

  it('are stored on the feed head by the change that moves it, conditional on the head read', () => {
    // Prepare
    const db = createDb({ tableName: 't' });
    const gapless = { head: 4, gaplessFrom: 1, epoch: 1, shape: { is: 'gapless' as const } };
    // Act
    const part = advanceHead(db, 'acme', gapless, 1_000, { plan: 'pro' }).Update;
    const plain = advanceHead(db, 'acme', gapless, 1_000).Update;
    const first = advanceHead(db, 'acme', { ...gapless, head: 0, shape: { is: 'none' } }, 1_000, {
      plan: 'pro',
    }).Update;
    // Assess
    expect(part?.UpdateExpression).toBe(
      'SET #head = :next, #committedAt = :now, #changePk = :changePk, #changeSk = :changeSk, #plan = :plan',
    );
    expect(part?.ConditionExpression).toBe('#head = :head');
    expect(part?.ExpressionAttributeValues).toMatchObject({ ':plan': 'pro', ':head': 4 });
    expect(plain?.UpdateExpression).toBe(
      'SET #head = :next, #committedAt = :now, #changePk = :changePk, #changeSk = :changeSk',
    );
    expect(first?.UpdateExpression).toMatch(/, #plan = :plan$/);
  });
});

describe("the account's events", () => {
  it('are read with any read scope, and never with write scopes alone', () => {
    // Assess
    expect(readsEvent(['spaces:read'], 'account.plan_changed')).toBe(true);
    expect(readsEvent(['webhooks:read', 'webhooks:write'], 'account.plan_changed')).toBe(true);
    expect(readsEvent(['webhooks:write', 'spaces:write'], 'account.plan_changed')).toBe(false);
    expect(isEventPattern('account.*')).toBe(true);
    expect(isEventPattern('account.plan_changed')).toBe(true);
    expect(isEventPattern('account.deleted')).toBe(false);
  });

  it('may be subscribed to by a key with any read scope; one without is told it needs one of them', () => {
    // Assess
    expect(() => assertReadable(['account.*'], ['domains:read'])).not.toThrow();
    expect(unreadablePatterns(['account.plan_changed'], ['webhooks:write'])).toEqual([
      { pattern: 'account.plan_changed', missing: ['domains:read', 'spaces:read', 'webhooks:read'], anyOf: true },
    ]);
  });

  it('are among what a new webhook subscribes to by default', () => {
    // Assess
    expect(subscribedPatterns(undefined, ['domains:read', 'webhooks:write'])).toEqual(['domain.*', 'account.*']);
    expect(subscribedPatterns(undefined, ['domains:read', 'spaces:read', 'webhooks:read'])).toEqual(['*']);
  });
});
