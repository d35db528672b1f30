/**
 * The one place older stored shapes become today's records, as they are read (items, and the records events
 * carry). Each rule names the shape it upgrades and why it is upgraded on read rather than migrated: the item
 * takes today's shape with its next change (`itemOf` writes the record), and nothing else reads the old one.
 */

import type { Kind } from '#lib/kinds.ts';
import { storedPage } from '#lib/platform/urls.ts';

type Fields = Record<string, unknown>;

const upgrades: Record<Kind, (record: Fields) => Fields> = {
  space: (record) => record,
  webhook: (record) => record,
  domain: (record) => ({
    ...record,
    // Stored before verification existed: no status, no token, active (holding the global guard only).
    // Kept apart by the missing token (`verificationToken`), which the API shows as `verification: null`:
    // a migration could not give them a token their owners never published.
    status: record.status ?? 'active',
    // Stored before the serving lifecycle: `pending` meant a tenant or certificate being set up.
    ...(record.serving === 'pending' ? { serving: 'provisioning' } : {}),
    // Stored before pages were normalized: shown and served as their href (`storedPage`).
    indexPage: storedPage(record.indexPage as string | null | undefined),
    notFoundPage: storedPage(record.notFoundPage as string | null | undefined),
  }),
};

/**
 * A record in today's shape. Every kind: stored before versions existed, version 0 (the item has no
 * `version` attribute until its first change, which the write's condition says: `versionCondition`).
 */
export function upgraded(kind: Kind, record: Fields): Fields {
  return upgrades[kind]({ ...record, version: typeof record.version === 'number' ? record.version : 0 });
}
