/** Each field a webhook's record stores besides every record's own (`lib/data/item.ts`), with its use (`FieldUse`). */
import type { FieldUse } from '#lib/kinds.ts';

export const webhookStoredFields = {
  events: 'published',
  enabled: 'published',
  description: 'published',
  enabledAt: 'published',
  disabledAt: 'published',
  disabledReason: 'published',
  // The rotation line of the key that directed it: which key it is held to is the data layer's.
  keyLineage: 'internal',
  // Its signing secrets: shown once, by its store's and its rotation's answers (`presentWithSecret`).
  secrets: 'secret',
  // Bookkeeping: when its run of failed deliveries began.
  failingSince: 'internal',
} as const satisfies Record<string, FieldUse>;
