import * as v from 'valibot';
import { integerBetween, maxCharacters, notEmpty, text } from './fields.ts';

export const SPACE_NAME_MAX = 32;
export const COLORS = { min: 1, max: 6, default: 1 } as const;

const name = (required: boolean) =>
  v.pipe(
    text('name', { required }),
    notEmpty('name'),
    maxCharacters('name', SPACE_NAME_MAX),
    v.transform((value) => value as string),
  );

const color = integerBetween('color', COLORS.min, COLORS.max);

export const storeSpaceSchema = v.pipe(
  // A missing key reaches the field schema as null, so it can answer "required" or apply the default.
  v.object({ name: v.optional(name(true), null), color: v.optional(color, null) }),
  v.transform(({ name, color }) => ({ name, color: color ?? COLORS.default })),
);

/** Absent fields stay unchanged; a present but empty name is rejected. */
export const updateSpaceSchema = v.object({ name: v.optional(name(false)), color: v.optional(color) });
