/**
 * The values response schemas are made of (`lib/schemas/responses.ts`, each kind's in its `lib/<kind>/api/`): ids,
 * timestamps, bounded text, URLs, nullable values with their description on the whole.
 */
import * as v from 'valibot';
import { MAX_ID } from '#lib/data/keys.ts';

export const integer = (min: number, max?: number) =>
  max === undefined
    ? v.pipe(v.number(), v.integer(), v.minValue(min))
    : v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

/**
 * A string of at most `max` characters. JSON Schema counts characters (code points) like the request
 * schemas do; valibot's `maxLength` counts UTF-16 units, so the limit is stated for the document only.
 */
export const text = (max: number, description: string) =>
  v.pipe(v.string(), v.metadata({ maxLength: max, description }));

export const id = v.pipe(integer(1, MAX_ID), v.description('Allocated per owner, increasing, never reused.'));

export const timestamp = (what: string) =>
  v.pipe(v.string(), v.isoTimestamp(), v.description(`${what}, ISO 8601 in UTC.`));

export const url = (description?: string) =>
  description === undefined ? v.pipe(v.string(), v.url()) : v.pipe(v.string(), v.url(), v.description(description));

/** The description goes on the whole value, not on the non-null branch only. */
export const nullable = <Schema extends v.GenericSchema>(schema: Schema, description: string) =>
  v.pipe(v.nullable(schema), v.description(description));
