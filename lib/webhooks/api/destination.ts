/**
 * A webhook URL's store-time check with DNS: its host's addresses as DNS gives them now must all be public
 * (`checkDestination`), or the URL is refused on `url` (422). Deliveries check again (`lib/webhooks/send.ts`).
 */
import { DnsUnavailableError } from '#lib/dns/errors.ts';
import { ValidationError } from '#lib/http/errors.ts';
import { checkDestination, type Resolve } from '#lib/webhooks/rules/address.ts';
import { type UrlRules, urlMessage } from './fields.ts';

/** The stack's URL rules: the local stack lets a webhook call this machine (`WEBHOOK_LOCAL_LOOPBACK`). */
export const urlRulesOf = (config: {
  webhookLocalLoopback?: boolean;
  webhookReservedPorts?: ReadonlySet<number>;
}): UrlRules => ({
  localLoopbackAllowed: config.webhookLocalLoopback === true,
  ...(config.webhookReservedPorts ? { reservedPorts: config.webhookReservedPorts } : {}),
});

/**
 * A host that does not exist (or has no address) is refused on `url`, but DNS that gave no answer (a timeout,
 * SERVFAIL) says nothing about the URL: its `DnsUnavailableError` goes on to the error mapping (503 with
 * `Retry-After`, as a verification's), where `checkDestination` alone would call it unresolvable.
 */
export async function assertDeliverable(url: string, rules: UrlRules, resolve: Resolve): Promise<void> {
  let unavailable: DnsUnavailableError | undefined;
  const remembering: Resolve = (hostname) =>
    resolve(hostname).catch((error: unknown) => {
      if (error instanceof DnsUnavailableError) unavailable = error;
      throw error;
    });
  const found = await checkDestination(url, { ...rules, resolve: remembering });
  if (unavailable) throw unavailable;
  if (!found.ok) throw ValidationError.field('url', urlMessage(found.reason));
}
