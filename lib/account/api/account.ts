/**
 * `GET /api/v1/account` as the API shows it: the owner's plan, for each kind the items held (`used`, the
 * counters the store's quota condition compares: `lib/account/data/account.ts`) and the plan's `limit`, and the calling
 * key's own facts (scopes, expiry, rate limit). Any key reads it, whatever its scopes.
 */
import * as v from 'valibot';
import type { Account } from '#lib/account/data/account.ts';
import type { KeyFacts, RequestKey } from '#lib/auth/rules/request-key.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '#lib/http/rate-limit.ts';
import { scopes } from '#lib/kinds.ts';
import { LIMIT_MAX, limitedCollections, PLAN_NAME } from '#lib/platform/plans.ts';
import { integer, nullable, timestamp } from '#lib/schemas/values.ts';

const usageOf = (collection: string) =>
  v.pipe(
    v.strictObject({
      used: v.pipe(integer(0), v.description(`The ${collection} the owner holds now.`)),
      limit: v.pipe(
        integer(0, LIMIT_MAX),
        v.description(
          `The most ${collection} the plan allows. A store beyond it is refused (422); \`used\` may be above it after a move to a smaller plan: what exists stays.`,
        ),
      ),
    }),
    v.description(`The owner's ${collection}, against the plan's limit.`),
  );

export const accountSchema = v.strictObject({
  plan: v.pipe(
    v.string(),
    v.regex(PLAN_NAME),
    v.description("The owner's plan (the stage's default for an owner the operator has not put on one)."),
  ),
  usage: v.strictObject(
    Object.fromEntries(limitedCollections.map((collection) => [collection, usageOf(collection)])) as Record<
      (typeof limitedCollections)[number],
      ReturnType<typeof usageOf>
    >,
  ),
  key: v.pipe(
    v.strictObject({
      scopes: v.pipe(v.array(v.picklist(scopes)), v.description('What the key may do.')),
      expires_at: nullable(timestamp('When the key stops working'), 'When the key stops working; null: never.'),
      rate_limit_per_minute: nullable(
        integer(1),
        `Requests the key may make per ${RATE_LIMIT_WINDOW_SECONDS}-second window before 429 (\`RateLimit-Policy\` on every answer says the same); null: none stated.`,
      ),
    }),
    v.description('The key this request was made with.'),
  ),
});

export type AccountShown = v.InferOutput<typeof accountSchema>;

export const presentAccount = (account: Account, key: RequestKey, facts: KeyFacts): AccountShown => ({
  plan: account.plan.name,
  usage: Object.fromEntries(
    limitedCollections.map((collection) => [
      collection,
      { used: account.usage[collection], limit: account.plan.limits[collection] },
    ]),
  ) as AccountShown['usage'],
  key: { scopes: [...key.scopes], expires_at: facts.expiresAt, rate_limit_per_minute: facts.rateLimitPerMinute },
});

/** An example answer, for the document. */
export const accountExample: AccountShown = {
  plan: 'starter',
  usage: {
    domains: { used: 3, limit: 3 },
    spaces: { used: 1, limit: 3 },
    webhooks: { used: 0, limit: 1 },
  },
  key: {
    scopes: ['domains:read', 'spaces:read'],
    expires_at: '2027-01-01T00:00:00.000Z',
    rate_limit_per_minute: 300,
  },
};
