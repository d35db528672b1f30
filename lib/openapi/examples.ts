/**
 * The document's examples that span kinds (a list page, the change feed); each kind's own are in its resource
 * module. Typed by the response shapes (the contract tests validate them too).
 */

import * as v from 'valibot';
import type { EventList } from '#lib/feed/schemas.ts';
import { resources } from '#lib/registry.ts';
import { listQuerySchema } from '#lib/schemas/list.ts';
import type { ListEnvelope } from '#lib/schemas/responses.ts';
import { type DeliveryList, deliveryExample } from '#lib/webhooks/api/schema.ts';

const at = '2025-01-15T09:30:00.000Z';
const later = '2025-02-03T16:05:12.345Z';

export const LOCAL_SERVER = 'http://127.0.0.1:3000/api/v1';

/** One page holding one item, with the links the service writes (the effective query, defaults included). */
export function listExample<Resource>(collection: string, item: Resource): ListEnvelope<Resource> {
  const path = `${LOCAL_SERVER}/${collection}`;
  const defaults = v.parse(listQuerySchema, {});
  const link = (page: number) =>
    `${path}?${new URLSearchParams({
      search_by: defaults.search_by,
      sort_by: defaults.sort_by,
      sort: defaults.sort,
      per_page: String(defaults.per_page),
      page: String(page),
    })}`;
  return {
    data: [item],
    links: { first: link(1), last: link(1), prev: null, next: null },
    meta: {
      current_page: 1,
      from: 1,
      last_page: 1,
      path,
      per_page: defaults.per_page,
      to: 1,
      total: 1,
      next_cursor: null,
    },
    status: 200,
  };
}

const domain = resources.domain.examples.shown;

/** A page of the change feed: a domain stored, then changed. */
export const eventListExample: EventList = {
  data: [
    { id: '000000000041', type: 'domain.created', created_at: at, data: domain },
    {
      id: '000000000042',
      type: 'domain.updated',
      created_at: later,
      data: { ...domain, not_found_page: 'https://www.example.com/404', updated_at: later },
    },
  ],
  links: {
    first: `${LOCAL_SERVER}/events?per_page=10`,
    next: `${LOCAL_SERVER}/events?after=v1.1764064642000.42.1764064582&per_page=10`,
  },
  meta: { path: `${LOCAL_SERVER}/events`, per_page: 10, has_more: false },
  status: 200,
};

export { deliveryExample };

/** A page of a webhook's attempts: the newest, and a link to older ones. */
export const deliveryListExample: DeliveryList = {
  data: [
    deliveryExample,
    {
      ...deliveryExample,
      attempt: 1,
      status_code: 503,
      succeeded: false,
      response_excerpt: 'Service Unavailable',
      duration_ms: 41,
      created_at: at,
    },
  ],
  links: {
    first: `${LOCAL_SERVER}/webhooks/2/deliveries?per_page=10`,
    next: `${LOCAL_SERVER}/webhooks/2/deliveries?per_page=10&cursor=eyJwIjoxfQ.c2lnbmF0dXJl`,
  },
  meta: { path: `${LOCAL_SERVER}/webhooks/2/deliveries`, per_page: 10, next_cursor: 'eyJwIjoxfQ.c2lnbmF0dXJl' },
  status: 200,
};
