/**
 * The plans each stage offers (`lib/platform/plans.ts`): what an owner may hold, per kind. The operator assigns one to an
 * owner with the key tool (`npm run keys -- plan --owner <id> --set <plan>`); an owner without one follows the
 * stage's default, `standard`: the limits every owner had before plans. Kept free of CDK imports so that
 * `npm start` and the key tool read them without loading aws-cdk-lib; `infra/stages.ts` holds them per stage,
 * the stack passes them to the functions that enforce or show them (`PLANS`), and the local stack takes dev's.
 *
 * A plan may be changed or added at any deploy. Lowering a limit below what owners hold keeps their items and
 * refuses new ones; removing a plan puts its owners on the default one (their stored plan stays, and counts
 * again if the plan comes back).
 */
import { type Plans, parsePlans, STANDARD_PLAN, standardLimits } from '#lib/platform/plans.ts';

const offered = {
  default: STANDARD_PLAN,
  plans: {
    starter: { domains: 3, spaces: 3, webhooks: 1 },
    [STANDARD_PLAN]: standardLimits,
    pro: { domains: 100_000, spaces: 100_000, webhooks: 50 },
  },
} as const satisfies Plans;

/** Checked here as the functions check `PLANS` at cold start, so a bad definition fails `cdk synth` and tests. */
export const plans = {
  dev: parsePlans(offered),
  prod: parsePlans(offered),
} as const satisfies Record<string, Plans>;

/** `PLANS`, as the functions read it. */
export const plansSetting = (stagePlans: Plans): string => JSON.stringify(stagePlans);
