/** Each field a domain's record stores besides every record's own (`lib/data/item.ts`), with its use (`FieldUse`). */
import type { FieldUse } from '#lib/kinds.ts';

export const domainStoredFields = {
  indexPage: 'published',
  notFoundPage: 'published',
  status: 'published',
  // Published as the TXT record to publish (`verification`): the owner's to see, and no key to anything.
  verificationToken: 'published',
  verifiedAt: 'published',
  lastCheckedAt: 'published',
  check: 'published',
  serving: 'published',
  servingFailure: 'published',
} as const satisfies Record<string, FieldUse>;
