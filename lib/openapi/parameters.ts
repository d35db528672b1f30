/**
 * Parameters: the `{id}` path parameter and the list query. The query's names and defaults come from the
 * valibot schema (`listQuerySchema`), its allowed values from the constants that schema uses.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { MAX_ID } from '#lib/data/keys.ts';
import {
  listQuerySchema,
  PAGE_MAX,
  PER_PAGE_OPTIONS,
  SEARCH_BY_OPTIONS,
  SEARCH_MAX,
  SORT_BY_OPTIONS,
  SORT_OPTIONS,
} from '#lib/schemas/list.ts';

type QueryName = keyof typeof listQuerySchema.entries;

const query: Record<QueryName, { description: string; schema: JsonSchema }> = {
  search: {
    description: 'Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form).',
    schema: { type: 'string', maxLength: SEARCH_MAX },
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
        description: name === 'cursor' ? description : `${description} ${FALLBACK_NOTE}`,
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
  };
}

export const listParameterName = (name: string) =>
  `List${name.replace(/(^|_)(\w)/g, (_, _separator, letter: string) => letter.toUpperCase())}`;

export const listParameterNames = () => Object.keys(listQuerySchema.entries).map(listParameterName);
