/**
 * Plans: what an owner may hold. A stage defines its plans (`infra/plans.ts`, passed to the functions that
 * enforce or show them as `PLANS`, read at cold start); one of them is the default, which every owner without
 * a plan of its own follows. An owner's plan is stored on its feed head (`lib/data/feed-head.ts`), which every
 * change reads and conditions on, so the store transaction's quota check needs no read of its own. Pure.
 */
import type { Collection } from '#lib/kinds.ts';

/** The kinds a plan limits, in the order `/account` and the key tool show them. */
export const limitedCollections = ['domains', 'spaces', 'webhooks'] as const satisfies readonly Collection[];

/** Most items of each kind one owner may hold. */
export type PlanLimits = Readonly<Record<Collection, number>>;

/** A stage's plans by name, and the one an owner without a plan follows. */
export type Plans = { readonly default: string; readonly plans: Readonly<Record<string, PlanLimits>> };

/** An owner's plan as it applies: its name and its limits. */
export type Plan = { name: string; limits: PlanLimits };

/** A plan's name: lower-case letters, digits and dashes, starting with a letter (at most 32 characters). */
export const PLAN_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** The most a limit may be: far beyond what any plan would give, and within what one Query pages through. */
export const LIMIT_MAX = 1_000_000;

/**
 * The limits every owner had before plans: 10,000 domains and 10,000 spaces (`MAX_ITEMS_PER_OWNER` until then)
 * and 10 webhooks (`MAX_WEBHOOKS_PER_OWNER`). The default plan of each stage, and of a function given no plans.
 */
export const STANDARD_PLAN = 'standard';
export const standardLimits: PlanLimits = { domains: 10_000, spaces: 10_000, webhooks: 10 };
export const standardPlans: Plans = { default: STANDARD_PLAN, plans: { [STANDARD_PLAN]: standardLimits } };

export class PlansError extends Error {
  override name = 'PlansError';
}

/** The plans' names, in the order they are defined. */
export const planNames = (plans: Plans): string[] => Object.keys(plans.plans);

/**
 * Checks a definition of plans (as `PLANS` carries it, parsed from JSON): every name a plan name, every limit
 * a whole number from 0 to `LIMIT_MAX` for each kind, and a default among them. Throws what is wrong.
 */
export function parsePlans(value: unknown): Plans {
  if (typeof value !== 'object' || value === null) throw new PlansError('must be an object');
  const { default: fallback, plans, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw new PlansError(`has unknown fields: ${extra.join(', ')}`);
  if (typeof plans !== 'object' || plans === null || Object.keys(plans).length === 0) {
    throw new PlansError('must define at least one plan in "plans"');
  }
  const checked: Record<string, PlanLimits> = {};
  for (const [name, limits] of Object.entries(plans as Record<string, unknown>)) {
    if (!PLAN_NAME.test(name)) throw new PlansError(`plan "${name}" must match ${PLAN_NAME}`);
    if (typeof limits !== 'object' || limits === null) throw new PlansError(`plan "${name}" must be an object`);
    const given = limits as Record<string, unknown>;
    const unknown = Object.keys(given).filter((key) => !(limitedCollections as readonly string[]).includes(key));
    if (unknown.length > 0) throw new PlansError(`plan "${name}" has unknown limits: ${unknown.join(', ')}`);
    for (const collection of limitedCollections) {
      const limit = given[collection];
      if (!Number.isSafeInteger(limit) || (limit as number) < 0 || (limit as number) > LIMIT_MAX) {
        throw new PlansError(`plan "${name}" must give ${collection} a whole number from 0 to ${LIMIT_MAX}`);
      }
    }
    checked[name] = Object.fromEntries(limitedCollections.map((c) => [c, given[c] as number])) as PlanLimits;
  }
  if (typeof fallback !== 'string' || !(fallback in checked)) {
    throw new PlansError(`"default" must name one of the plans (${Object.keys(checked).join(', ')})`);
  }
  return { default: fallback, plans: checked };
}

/**
 * The plan an owner follows: the one stored for it, or the default when it has none, or when the stage no
 * longer defines the one stored (an operator removed it): never an error on a request, and never more than
 * the stage gives.
 */
export function planOf(plans: Plans, stored: string | undefined): Plan {
  // Own plans only: a stored name such as `constructor` is no plan.
  const limits = stored !== undefined && Object.hasOwn(plans.plans, stored) ? plans.plans[stored] : undefined;
  if (stored !== undefined && limits) return { name: stored, limits };
  return { name: plans.default, limits: plans.plans[plans.default] as PlanLimits };
}

/** A plan the stage does not define; the message names those it does. */
export class UnknownPlan extends Error {
  override name = 'UnknownPlan';
  constructor(
    readonly plan: string,
    readonly known: readonly string[],
  ) {
    super(`Unknown plan "${plan}". The plans are: ${known.join(', ')}.`);
  }
}

/** The plan of that name, or `UnknownPlan`. */
export function definedPlan(plans: Plans, name: string): Plan {
  const limits = Object.hasOwn(plans.plans, name) ? plans.plans[name] : undefined;
  if (!limits) throw new UnknownPlan(name, planNames(plans));
  return { name, limits };
}

/** The largest limit of a kind over every plan: what one owner may hold at most, whatever its plan. */
export const largestLimit = (plans: Plans, collection: Collection): number =>
  Math.max(...Object.values(plans.plans).map((limits) => limits[collection]));

/** Plans of one plan, the default: the standard limits but those given (tests, benchmarks). */
export const onePlan = (limits: Partial<PlanLimits>, name = STANDARD_PLAN): Plans => ({
  default: name,
  plans: { [name]: { ...standardLimits, ...limits } },
});
