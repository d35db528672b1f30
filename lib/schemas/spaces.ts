import * as v from 'valibot';
import { type Encoding, integerBetween, maxCharacters, notEmpty, text } from './fields.ts';
import { optional, requestBody, required } from './request.ts';

export const SPACE_NAME_MAX = 32;
export const COLORS = { min: 1, max: 6, default: 1 } as const;

/** The space's fields a client never writes (`lib/schemas/responses.ts`'s Space, less the request's fields). */
export const SPACE_READ_ONLY = ['id', 'created_at', 'updated_at'] as const;

/** Trimmed, not empty, at most 32 characters; no control, invisible or bidi control characters. */
const name = (encoding: Encoding) =>
  v.pipe(text('name', { encoding, name: true }), notEmpty('name'), maxCharacters('name', SPACE_NAME_MAX));

const color = (encoding: Encoding) => integerBetween('color', COLORS.min, COLORS.max, encoding);

/** A missing name is required; a missing (or blank, in a form) color is the default. */
export const storeSpaceBody = /* @__PURE__ */ requestBody({
  name: required(name),
  color: optional(color),
});

export const storeSpaceSchema = /* @__PURE__ */ v.pipe(
  storeSpaceBody.schema,
  v.transform(({ name, color }) => ({ name, color: color ?? COLORS.default })),
);

/** Absent fields stay unchanged (a blank color in a form too); a present but empty name is rejected. */
export const updateSpaceBody = /* @__PURE__ */ requestBody(
  { name: optional(name), color: optional(color) },
  { readOnly: SPACE_READ_ONLY },
);

export const updateSpaceSchema = updateSpaceBody.schema;
