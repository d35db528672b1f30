/** Field schemas shared by the request schemas; messages follow the 422 contract. */
import * as v from 'valibot';

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

/** No control characters (`\p{Cc}`): they are invisible, break logs, and are reserved in the name sort key. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

/**
 * Characters a name may not hold besides control characters: they are invisible or reorder the text around
 * them, so two names that look alike could differ, or a name could display as another (`\u202E` writes what
 * follows right to left). Every format character (`\p{Cf}`: zero-width space, joiners, word joiner, BOM, soft
 * hyphen, bidi embeddings, overrides and isolates, left-to-right and right-to-left marks, tag characters,
 * invisible operators), the line and paragraph separators (U+2028, U+2029) and the Hangul fillers, letters
 * that display as nothing (U+115F, U+1160, U+3164, U+FFA0). Emoji joined by U+200D (👨‍👩‍👧) are refused
 * with them; a single emoji, with its variation selector (❤️), is not.
 */
export const INVISIBLE_CHARACTERS = /[\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

/**
 * Everything no text field may hold (control characters), and everything a name may not hold (both classes
 * above in one: a test checks it is exactly their union). Literals, not built with `new RegExp`, so that a
 * bundle that does not use them drops them.
 */
export const NOT_IN_TEXT = CONTROL_CHARACTERS;
export const NOT_IN_NAMES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;

/** Characters a regular expression's class reads as syntax: written escaped (`\]`), any other as itself. */
const CLASS_SYNTAX = /* @__PURE__ */ new Set(['\\', ']', '[', '^', '-']);

const inClass = (code: number) => {
  const character = String.fromCodePoint(code);
  return CLASS_SYNTAX.has(character) ? `\\${character}` : character;
};

/**
 * A regular expression character class (`[...]`, without the brackets) of the code points a rule matches, as
 * ranges of the characters themselves (`a-z`, not `\u0061-\u007A`; only `\ ] [ ^ -` escaped): the document's
 * `pattern`s state the code's rule itself, in the running Unicode version, in JSON Schema's interoperable
 * subset (individual characters, ranges, no escapes whose meaning differs between engines, no `\u{…}`), which
 * ECMA-262 with the `u` flag, Python's `re` and other engines read alike. Surrogates are no characters: left out.
 */
export function characterClass(rule: RegExp): string {
  const ranges: string[] = [];
  let start = -1;
  for (let code = 0; code <= 0x110000; code++) {
    const matches = code < 0x110000 && (code < 0xd800 || code > 0xdfff) && rule.test(String.fromCodePoint(code));
    if (matches && start < 0) start = code;
    if (!matches && start >= 0) {
      ranges.push(start === code - 1 ? inClass(start) : `${inClass(start)}-${inClass(code - 1)}`);
      start = -1;
    }
  }
  return ranges.join('');
}

export const characterCount = (value: string) => [...value].length;

type TextOptions<Nullable extends boolean> = {
  encoding: Encoding;
  /** A blank value or JSON `null` means none (a domain's pages); elsewhere null is the wrong type. */
  nullable?: Nullable;
  /** A name: no invisible or bidi control characters either. */
  name?: boolean;
};

type TextOutput<Nullable extends boolean> = Nullable extends true ? string | null : string;

export const invisibleMessage = (field: string) =>
  `The ${label(field)} field must not contain invisible or bidirectional control characters.`;

/**
 * A single string value, trimmed; for a nullable field, null too (a blank value, or JSON `null`). Form arrays
 * (`name[]=x`), repeated keys and JSON lists, objects, numbers and booleans are rejected with a message that
 * says which. It runs only on a field that is present: the body schema (`./request.ts`) handles absent ones.
 */
export function text<Nullable extends boolean = false>(
  field: string,
  { encoding, nullable, name = false }: TextOptions<Nullable>,
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
      if (CONTROL_CHARACTERS.test(value)) {
        addIssue({ message: `The ${label(field)} field must not contain control characters.` });
        return NEVER;
      }
      if (name && INVISIBLE_CHARACTERS.test(value)) {
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
