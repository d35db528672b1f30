/**
 * Parameters: the `{id}` path parameter and the list query. The query's names and defaults come from the
 * valibot schema (`listQuerySchema`), its allowed values from the constants that schema uses.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { MAX_ID, SEARCH_MAX } from '#lib/data/keys.ts';
import { EVENT_TYPE_FILTER_MAX, EVENTS_PER_PAGE, FEED_CURSOR_PATTERN } from '#lib/schemas/events.ts';
import {
  listQuerySchema,
  PAGE_MAX,
  PER_PAGE_OPTIONS,
  SEARCH_BY_OPTIONS,
  SORT_BY_OPTIONS,
  SORT_OPTIONS,
} from '#lib/schemas/list.ts';

type QueryName = keyof typeof listQuerySchema.entries;

const query: Record<QueryName, { description: string; schema: JsonSchema }> = {
  search: {
    description:
      'Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is ' +
      `longer than ${SEARCH_MAX} characters, so a longer search matches nothing: the page is empty (it is never ` +
      'ignored).',
    schema: { type: 'string' },
  },
  search_by: { description: 'The field `search` looks in.', schema: { type: 'string', enum: [...SEARCH_BY_OPTIONS] } },
  sort_by: {
    description: '`id` is the order of creation; `name` ignores case, and ties break by id in the same direction.',
    schema: { type: 'string', enum: [...SORT_BY_OPTIONS] },
  },
  sort: { description: 'Sort direction.', schema: { type: 'string', enum: [...SORT_OPTIONS] } },
  per_page: { description: 'Items per page.', schema: { type: 'integer', enum: [...PER_PAGE_OPTIONS] } },
  page: {
    description: 'The page, from 1. Without a cursor, a deep page costs a walk over the pages before it.',
    schema: { type: 'integer', minimum: 1, maximum: PAGE_MAX },
  },
  cursor: {
    description:
      'Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`.',
    schema: { type: 'string', minLength: 1 },
  },
};

const FALLBACK_NOTE = 'An invalid value falls back to the default.';

/** Parameter components by name: `Id` and one `List<Name>` per list query parameter. */
export function parameters(): Record<string, Record<string, unknown>> {
  const list = Object.entries(listQuerySchema.entries).map(([name, schema]) => {
    const { description, schema: base } = query[name as QueryName];
    const fallback = v.getFallback(schema);
    return [
      listParameterName(name),
      {
        name,
        in: 'query',
        required: false,
        // A cursor is checked (422); a search is always applied; the others fall back, as phpShort's do.
        description: name === 'cursor' || name === 'search' ? description : `${description} ${FALLBACK_NOTE}`,
        schema: fallback === undefined ? base : { ...base, default: fallback },
      },
    ];
  });
  return {
    Id: {
      name: 'id',
      in: 'path',
      required: true,
      description: 'The resource id. Any value that is not a positive decimal integer answers 404.',
      schema: { type: 'integer', minimum: 1, maximum: MAX_ID },
      example: 7,
    },
    ...Object.fromEntries(list),
    ...eventParameters,
    ...headerParameters,
  };
}

/** The change feed's query. */
const eventParameters = {
  EventsAfter: {
    name: 'after',
    in: 'query',
    required: false,
    description:
      "Where to continue: the cursor of `links.next` (`v1.<epoch>.<id>.<time>`, such as `v1.1764064642000.42.1764064642`: use the one the feed gave you, as it names that feed's epoch), or the `id` of the last event you have (which cannot tell a restored feed from the one you read; `0`: from the start). Absent: from the oldest event kept. Anything else: 422. An expired cursor, or one from another epoch of the feed: 410.",
    schema: { type: 'string', pattern: FEED_CURSOR_PATTERN },
    // An example a tool may send again and again, on any owner's feed: the start (a cursor's epoch is one feed's).
    example: '0',
  },
  EventsPerPage: {
    name: 'per_page',
    in: 'query',
    required: false,
    description: `Events per page. ${FALLBACK_NOTE}`,
    schema: {
      type: 'integer',
      minimum: EVENTS_PER_PAGE.min,
      maximum: EVENTS_PER_PAGE.max,
      default: EVENTS_PER_PAGE.default,
    },
  },
  EventsType: {
    name: 'type',
    in: 'query',
    required: false,
    description: 'Only events whose type starts with this: `domain.` for domains, `space.deleted` for deleted spaces.',
    schema: { type: 'string', maxLength: EVENT_TYPE_FILTER_MAX },
    example: 'domain.',
  },
};

export const eventParameterNames = () => Object.keys(eventParameters);

/** Request headers of conditional and idempotent requests. */
const headerParameters = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      "Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on.",
    // Printable ASCII, space to tilde; none at either end, as HTTP trims it from a header's value.
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]([ -~]*[!-~])?$' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.',
    schema: { type: 'string' },
    // The example works whenever it is sent again: a fixed version would be stale after the first change.
    example: '*',
  },
  IfNoneMatchChange: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.',
    schema: { type: 'string' },
    example: '"3"',
  },
};

export const listParameterName = (name: string) =>
  `List${name.replace(/(^|_)(\w)/g, (_, _separator, letter: string) => letter.toUpperCase())}`;

export const listParameterNames = () => Object.keys(listQuerySchema.entries).map(listParameterName);
