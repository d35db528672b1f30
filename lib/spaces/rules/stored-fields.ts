/** Each field a space's record stores besides every record's own (`lib/data/item.ts`), with its use (`FieldUse`). */
import type { FieldUse } from '#lib/kinds.ts';

export const spaceStoredFields = { color: 'published' } as const satisfies Record<string, FieldUse>;
