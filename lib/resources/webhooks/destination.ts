/**
 * A webhook URL's store-time check with DNS: its host's addresses as DNS gives them now must all be public
 * (`checkDestination`), or the URL is refused on `url` (422). Deliveries check again (`lib/webhooks/delivery.ts`).
 */
import { ValidationError } from '#lib/errors.ts';
import { checkDestination, type Resolve } from '#lib/webhooks/address.ts';
import { type UrlRules, urlMessage } from './fields.ts';

/** The stack's URL rules: the local stack lets a webhook call this machine (`WEBHOOK_LOCAL_LOOPBACK`). */
export const urlRulesOf = (config: { webhookLocalLoopback?: boolean }): UrlRules => ({
  localLoopbackAllowed: config.webhookLocalLoopback === true,
});

export async function assertDeliverable(url: string, rules: UrlRules, resolve: Resolve): Promise<void> {
  const found = await checkDestination(url, { ...rules, resolve });
  if (!found.ok) throw ValidationError.field('url', urlMessage(found.reason));
}
