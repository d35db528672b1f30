/**
 * Requests per 60-second window, per stage, before the API answers 429: enforced on AWS by the web ACL
 * (`infra/constructs/waf.ts`) and locally by the gateway (`infra/local/rate-limit.ts`, per key). Kept free of
 * CDK imports so that `npm start` reads them without loading aws-cdk-lib; `infra/stages.ts` holds them per stage.
 */
export type RateLimit = {
  /** Per API key, whatever the spelling of its `Authorization` header (a wrong key counts under its own value). */
  perKeyPerMinute: number;
  /**
   * Per source IP, whatever the key: bounds floods with no key or a new fake key on every request, which the
   * per-key rule cannot see. Set five times the per-key limit, so that a few keys used from one address (a
   * customer's CI behind one NAT) at their full rate still pass, while one address never takes more than a
   * tenth of prod's stage-wide throttle (500 requests/s = 30,000 a minute).
   */
  perIpPerMinute: number;
};

export const rateLimits = {
  dev: { perKeyPerMinute: 300, perIpPerMinute: 1_500 },
  prod: { perKeyPerMinute: 600, perIpPerMinute: 3_000 },
} as const satisfies Record<string, RateLimit>;

/** The one window AWS WAF and the local gateway count over (the answers' `RateLimit-Policy` states it). */
export { RATE_LIMIT_WINDOW_SECONDS } from '#lib/http/rate-limit.ts';
