/** Field schemas shared by the request schemas; messages follow the 422 contract. */
import * as v from 'valibot';
import { type CharacterRule, NOT_IN_TEXT, refusedCharacters, withoutSpacesAround } from '#lib/platform/characters.ts';

export const label = (field: string) => field.replace(/_/g, ' ');

/**
 * A page on the domain itself would redirect to itself. Here, not with the domain schemas, as every function's
 * error middleware says it: importing those would bundle their valibot schemas into every function.
 */
export const loopMessage = (field: string) => `The ${label(field)} must not point to the domain itself.`;

/**
 * How a body was sent. A form carries only strings (and lists, for repeated keys), so its fields are read
 * leniently (`color=3`, a blank field for "none", unknown fields ignored); JSON has types, so a JSON body is
 * read strictly (a number for a number, no field the schema does not list).
 */
export type Encoding = 'form' | 'json';

/** The records `lib/http/body.ts` parsed from a form; any other input is validated as JSON. */
const formBodies = /* @__PURE__ */ new WeakSet<object>();

/** Marks a record as a form body's fields: the request schemas then apply the form rules to it. */
export function asForm<Fields extends object>(fields: Fields): Fields {
  formBodies.add(fields);
  return fields;
}

export const encodingOf = (input: unknown): Encoding =>
  typeof input === 'object' && input !== null && formBodies.has(input) ? 'form' : 'json';

export const characterCount = (value: string) => [...value].length;

type TextOptions<Nullable extends boolean> = {
  encoding: Encoding;
  /** A blank value or JSON `null` means none (a domain's pages); elsewhere null is the wrong type. */
  nullable?: Nullable;
  /**
   * Which characters it refuses (`lib/platform/characters.ts`): control characters (`text`, the default); in a name or a
   * description, invisible, bidi control, private-use and blank-looking ones too (`name`); in a domain name,
   * also an emoji's variation selector, which IDNA would drop (`hostname`).
   */
  characters?: CharacterRule;
};

type TextOutput<Nullable extends boolean> = Nullable extends true ? string | null : string;

export const invisibleMessage = (field: string) =>
  `The ${label(field)} field must not contain invisible, bidirectional control, private-use or blank-looking characters.`;

/**
 * A single string value, trimmed; for a nullable field, null too (a blank value, or JSON `null`). Form arrays
 * (`name[]=x`), repeated keys and JSON lists, objects, numbers and booleans are rejected with a message that
 * says which. It runs only on a field that is present: the body schema (`./request.ts`) handles absent ones.
 */
export function text<Nullable extends boolean = false>(
  field: string,
  { encoding, nullable, characters = 'text' }: TextOptions<Nullable>,
): v.GenericSchema<unknown, TextOutput<Nullable>> {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      // JSON null is "none": a value for a nullable field, a missing value for any other.
      if (value === null) {
        if (nullable) return null as TextOutput<Nullable>;
        addIssue({ message: `The ${label(field)} field is required.` });
        return NEVER;
      }
      if (Array.isArray(value)) {
        addIssue({ message: `The ${label(field)} field must be a single value, not a list.` });
        return NEVER;
      }
      if (typeof value !== 'string') {
        addIssue({
          message: `The ${label(field)} field must be a string${nullable && encoding === 'json' ? ' or null' : ''}.`,
        });
        return NEVER;
      }
      // A lone UTF-16 surrogate (possible in JSON, `"\ud800"`) is not text: it has no UTF-8 form to store.
      if (!value.isWellFormed()) {
        addIssue({ message: `The ${label(field)} field must be valid Unicode text.` });
        return NEVER;
      }
      if (NOT_IN_TEXT.test(value)) {
        addIssue({ message: `The ${label(field)} field must not contain control characters.` });
        return NEVER;
      }
      // A no-break space pasted around a name is trimmed, as it always was; inside one it is refused.
      if (characters !== 'text' && refusedCharacters(withoutSpacesAround(value), characters)) {
        addIssue({ message: invisibleMessage(field) });
        return NEVER;
      }
      const trimmed = value.trim();
      return (nullable && trimmed === '' ? null : trimmed) as TextOutput<Nullable>;
    }),
  );
}

export function maxCharacters<Value extends string | null>(field: string, max: number) {
  return v.check(
    (value: Value) => value === null || characterCount(value) <= max,
    `The ${label(field)} field must not be greater than ${max} characters.`,
  );
}

export function notEmpty(field: string) {
  return v.check((value: string) => value !== '', `The ${label(field)} field is required.`);
}

/** Digits, maybe padded with spaces (a form's `color= 3`). */
const FORM_INTEGER = /^\s*-?\d+\s*$/;

/**
 * An integer. JSON: a number (`3`, not `"3"`, nor `null`). Form: digits (`"3"`), and a blank field means
 * absent (undefined), so an HTML form can leave it empty.
 */
export function integerBetween(field: string, min: number, max: number, encoding: Encoding) {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (encoding === 'form' && value === '') return undefined;
      if (Array.isArray(value)) {
        addIssue({ message: `The ${label(field)} field must be a single value, not a list.` });
        return NEVER;
      }
      const number =
        encoding === 'json'
          ? typeof value === 'number'
            ? value
            : Number.NaN
          : typeof value === 'string' && FORM_INTEGER.test(value)
            ? Number(value)
            : Number.NaN;
      if (!Number.isInteger(number)) {
        addIssue({ message: `The ${label(field)} field must be an integer.` });
        return NEVER;
      }
      if (number < min || number > max) {
        addIssue({ message: `The ${label(field)} field must be between ${min} and ${max}.` });
        return NEVER;
      }
      return number;
    }),
  );
}
