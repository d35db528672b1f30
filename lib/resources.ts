/**
 * The API's resource shapes: how stored items are shown to clients. The shapes are the response schemas
 * in `lib/schemas/responses.ts` (the OpenAPI document is generated from them); only their types are
 * imported here, so the handlers' bundles carry no schema code.
 */
import { statusOf } from '#lib/data/domain-status.ts';
import type { DomainItem } from '#lib/data/domains.ts';
import type { EventRecord } from '#lib/data/event-item.ts';
import { padId } from '#lib/data/keys.ts';
import type { SpaceItem } from '#lib/data/spaces.ts';
import { unicodeName } from '#lib/idn.ts';
import type { Deleted, Domain, EventList, Space } from '#lib/schemas/responses.ts';
import { verificationName } from '#lib/verification.ts';

export type {
  Deleted,
  Domain,
  ErrorBody,
  ListEnvelope,
  Space,
  ValidationErrorBody,
} from '#lib/schemas/responses.ts';

export const presentSpace = (item: SpaceItem): Space => ({
  id: item.id,
  name: item.name,
  color: item.color,
  created_at: item.createdAt,
  updated_at: item.updatedAt,
});

export const presentDomain = (item: DomainItem): Domain => ({
  id: item.id,
  name: item.name,
  unicode_name: unicodeName(item.name),
  status: statusOf(item),
  // Domains stored before verification existed have no record to publish.
  verification: item.verificationToken
    ? { type: 'TXT', name: verificationName(item.name), value: item.verificationToken }
    : null,
  verified_at: item.verifiedAt ?? null,
  last_checked_at: item.lastCheckedAt ?? null,
  index_page: item.indexPage ?? null,
  not_found_page: item.notFoundPage ?? null,
  created_at: item.createdAt,
  updated_at: item.updatedAt,
});

export const deleted = (object: Deleted['object'], id: number): Deleted => ({ id, object, deleted: true, status: 200 });

/** The resource an event carries, as the API shows it. */
const presenters = { space: presentSpace, domain: presentDomain } as const;

/** An event as the feed lists it: its record presented, or (older events) the JSON answered then. */
export function presentEvent(event: EventRecord): EventList['data'][number] {
  const { payload } = event;
  const data = 'record' in payload ? presenters[event.kind](payload.record as never) : payload.answered;
  return { id: padId(event.id), type: event.type, created_at: event.createdAt, data } as EventList['data'][number];
}
