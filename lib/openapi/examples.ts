/** Examples for the document, typed by the response shapes (the contract tests validate them too). */

import * as v from 'valibot';
import type { Kind } from '#lib/kinds.ts';
import type { Domain, ListEnvelope, Space } from '#lib/resources.ts';
import { listQuerySchema } from '#lib/schemas/list.ts';
import type { EventList } from '#lib/schemas/responses.ts';
import { verificationName } from '#lib/verification.ts';

const at = '2025-01-15T09:30:00.000Z';
const later = '2025-02-03T16:05:12.345Z';

export const LOCAL_SERVER = 'http://127.0.0.1:3000/api/v1';

export const examples = {
  space: { id: 7, name: 'Marketing', color: 3, created_at: at, updated_at: later } satisfies Space,
  domain: {
    id: 4,
    name: 'example.com',
    unicode_name: 'example.com',
    status: 'active',
    serving: 'active',
    serving_error: null,
    records: [
      {
        type: 'TXT',
        name: verificationName('example.com'),
        value: 'q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU',
        status: 'found',
      },
      { type: 'CNAME', name: 'example.com', value: 'edge.example.net', status: 'found' },
    ],
    verification: { type: 'TXT', name: verificationName('example.com'), value: 'q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU' },
    verified_at: later,
    last_checked_at: later,
    // Pages are on another host than the domain's own name: the service refuses a page that would loop.
    index_page: 'https://www.example.com/welcome',
    not_found_page: null,
    created_at: at,
    updated_at: later,
  } satisfies Domain,
};

/** What a store answers: a domain is pending, with the record to publish. */
export const storedExamples: Record<Kind, object> = {
  space: examples.space,
  domain: {
    ...examples.domain,
    status: 'pending',
    serving: 'pending',
    records: examples.domain.records.map((record) => ({ ...record, status: 'missing' as const })),
    verified_at: null,
    last_checked_at: null,
    updated_at: examples.domain.created_at,
  } satisfies Domain,
};

/** Request body examples, by kind, by the action that takes a body and by media type (a form sends strings). */
export const requestExamples: Record<Kind, Record<'store' | 'update', Record<'json' | 'form', object>>> = {
  space: {
    store: { json: { name: 'Marketing', color: 3 }, form: { name: 'Marketing', color: '3' } },
    update: { json: { color: 5 }, form: { color: '5' } },
  },
  domain: {
    store: {
      json: { name: 'example.com', index_page: 'https://www.example.com/welcome' },
      form: { name: 'example.com', index_page: 'https://www.example.com/welcome' },
    },
    update: {
      json: { not_found_page: 'https://www.example.com/404', index_page: null },
      form: { not_found_page: 'https://www.example.com/404' },
    },
  },
};

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

/** A page of the change feed: a domain stored, then changed. */
export const eventListExample: EventList = {
  data: [
    { id: '000000000041', type: 'domain.created', created_at: at, data: examples.domain },
    {
      id: '000000000042',
      type: 'domain.updated',
      created_at: later,
      data: { ...examples.domain, not_found_page: 'https://www.example.com/404', updated_at: later },
    },
  ],
  links: {
    first: `${LOCAL_SERVER}/events?per_page=10`,
    next: `${LOCAL_SERVER}/events?after=v1.1764064642000.42.1764064582&per_page=10`,
  },
  meta: { path: `${LOCAL_SERVER}/events`, per_page: 10, has_more: false },
  status: 200,
};
