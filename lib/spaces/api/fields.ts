/**
 * A space's fields, each defined once: what a request may send (valibot, by encoding) and how the document
 * describes it (its JSON Schema and examples). How the API shows a space is `schema.ts`. A function's bundle
 * takes the request schemas only; the documentation is dropped as unused.
 */

import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { type FieldDocs, fieldType, mapped, type RequestExample, readOnlyFields } from '#lib/kind-module.ts';
import { type Encoding, integerBetween, maxCharacters, notEmpty, text } from '#lib/schemas/fields.ts';
import { NAME_CHARACTERS, nameClasses, nameUnit, unchanged } from '#lib/schemas/patterns.ts';
import { type Mode, optional, requestBody, required } from '#lib/schemas/request.ts';
import { COLORS, SPACE_NAME_MAX } from './limits.ts';
import type { Space } from './schema.ts';

/** Trimmed, not empty, at most 32 characters; none of the characters names may not hold (`lib/platform/characters.ts`). */
const name = (encoding: Encoding) =>
  v.pipe(text('name', { encoding, characters: 'name' }), notEmpty('name'), maxCharacters('name', SPACE_NAME_MAX));

const color = (encoding: Encoding) => integerBetween('color', COLORS.min, COLORS.max, encoding);

/** The space's fields a client never writes. */
export const SPACE_READ_ONLY = /* @__PURE__ */ readOnlyFields<Space, 'name' | 'color'>()([
  'id',
  'created_at',
  'updated_at',
]);

/** A missing name is required; a missing (or blank, in a form) color is the default. */
export const storeSpaceBody = /* @__PURE__ */ requestBody({
  name: /* @__PURE__ */ required(name),
  color: /* @__PURE__ */ optional(color),
});

export const storeSpaceSchema = /* @__PURE__ */ mapped(storeSpaceBody, ({ name, color }) => ({
  name,
  color: color ?? COLORS.default,
}));

/** Absent fields stay unchanged (a blank color in a form too); a present but empty name is rejected. */
export const updateSpaceBody = /* @__PURE__ */ requestBody(
  { name: /* @__PURE__ */ optional(name), color: /* @__PURE__ */ optional(color) },
  { readOnly: SPACE_READ_ONLY },
);

export const updateSpaceSchema = updateSpaceBody.schema;

/**
 * A space's name: no character names may not hold anywhere (`nameUnit`), not blank, and spaces around it
 * (which the service trims).
 */
export function spaceNamePattern(): string {
  const edge = `(${nameUnit({ edge: true })})`;
  const spaces = `[${nameClasses().spaces}]*`;
  return `^${spaces}${edge}((${nameUnit()})*${edge})?${spaces}$`;
}

const colorDoc = (mode: Mode, encoding: Encoding): JsonSchema =>
  encoding === 'json'
    ? {
        type: 'integer',
        minimum: COLORS.min,
        maximum: COLORS.max,
        description: `Color code, a JSON number (not a string, not null).${mode === 'store' ? '' : ' Absent: unchanged.'}`,
        ...(mode === 'store' ? { default: COLORS.default } : {}),
        examples: [3],
      }
    : {
        type: 'string',
        pattern: `^[${COLORS.min}-${COLORS.max}]?$`,
        description: `Color code, in digits (spaces and leading zeros are tolerated). Empty: ${mode === 'store' ? `the default, ${COLORS.default}` : 'unchanged'}.${unchanged(mode)}`,
        ...(mode === 'store' ? { default: String(COLORS.default) } : {}),
        examples: ['3'],
      };

/** A space's name, as every body that sets it takes it (one component: its pattern is long). */
export const spaceFieldTypes = {
  SpaceName: (): JsonSchema => ({
    type: 'string',
    minLength: 1,
    maxLength: SPACE_NAME_MAX,
    pattern: spaceNamePattern(),
    description: `A space's name: at most ${SPACE_NAME_MAX} characters. ${NAME_CHARACTERS}`,
    examples: ['Marketing'],
  }),
};

export const spaceFieldDocs: FieldDocs<{ store: typeof storeSpaceBody; update: typeof updateSpaceBody }> = {
  name: (mode) => ({
    ...fieldType('SpaceName'),
    description: `Unique per owner, ignoring case. Spaces around it are trimmed (and not counted).${unchanged(mode)}`,
  }),
  color: colorDoc,
};

export const spaceRequestExamples: Record<Mode, RequestExample> = {
  store: { json: { name: 'Marketing', color: 3 }, form: { name: 'Marketing', color: '3' } },
  update: { json: { color: 5 }, form: { color: '5' } },
};
