import * as v from 'valibot';
import { POSITIVE_INTEGER } from '#lib/platform/integers.ts';

/**
 * The list query's parameters. Invalid values fall back to the default, as the original service does; a search
 * is never dropped: one longer than any name (`SEARCH_MAX`) matches nothing, as it did there.
 */
export const PER_PAGE_OPTIONS = [10, 25, 50, 100] as const;
export const PAGE_MAX = 1_000_000_000;
export const SEARCH_BY_OPTIONS = ['name'] as const;
export const SORT_BY_OPTIONS = ['id', 'name'] as const;
export const SORT_OPTIONS = ['desc', 'asc'] as const;

const choice = <const T extends string>(options: readonly T[], fallback: T) =>
  v.fallback(
    v.pipe(
      v.string(),
      v.transform((value) => value.trim().toLowerCase() as T),
      v.check((value) => options.includes(value)),
    ),
    fallback,
  );

const positiveInteger = (max: number) =>
  v.pipe(v.string(), v.trim(), v.regex(POSITIVE_INTEGER), v.transform(Number), v.maxValue(max));

export const listQuerySchema = v.object({
  search: v.fallback(v.pipe(v.string(), v.trim()), ''),
  search_by: choice(SEARCH_BY_OPTIONS, 'name'),
  sort_by: choice(SORT_BY_OPTIONS, 'id'),
  sort: choice(SORT_OPTIONS, 'desc'),
  per_page: v.fallback(
    v.pipe(
      positiveInteger(100),
      v.check((value) => (PER_PAGE_OPTIONS as readonly number[]).includes(value)),
    ),
    PER_PAGE_OPTIONS[0],
  ),
  page: v.fallback(positiveInteger(PAGE_MAX), 1),
  cursor: v.fallback(v.optional(v.pipe(v.string(), v.nonEmpty())), undefined),
});

export type ListParams = v.InferOutput<typeof listQuerySchema>;

/** Parses the query string; it never throws, since every parameter has a fallback. */
export const parseListQuery = (query: Record<string, string | undefined>): ListParams =>
  v.parse(listQuerySchema, query);
