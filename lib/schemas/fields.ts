/** Field schemas shared by the request schemas; messages follow the 422 contract. */
import * as v from 'valibot';

export const label = (field: string) => field.replace(/_/g, ' ');

/** No control characters: they are invisible, break logs, and are reserved in the name sort key. */
const CONTROL_CHARACTERS = /\p{Cc}/u;

export const characterCount = (value: string) => [...value].length;

/**
 * A single string value. Form arrays (`name[]=x`), repeated keys and JSON objects or numbers are
 * rejected with a message that says which.
 */
export function text(field: string, { required }: { required: boolean }) {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (value === undefined || value === null) {
        if (required) addIssue({ message: `The ${label(field)} field is required.` });
        return required ? NEVER : null;
      }
      if (Array.isArray(value)) {
        addIssue({ message: `The ${label(field)} field must be a single value, not a list.` });
        return NEVER;
      }
      if (typeof value !== 'string') {
        addIssue({ message: `The ${label(field)} field must be a string.` });
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
      return value.trim();
    }),
  );
}

export function maxCharacters(field: string, max: number) {
  return v.check(
    (value: string | null) => value === null || characterCount(value) <= max,
    `The ${label(field)} field must not be greater than ${max} characters.`,
  );
}

export function notEmpty(field: string) {
  return v.check((value: string | null) => value !== null && value !== '', `The ${label(field)} field is required.`);
}

/** Integer from JSON numbers or form strings (`"3"`); empty means absent, so forms can leave it blank. */
export function integerBetween(field: string, min: number, max: number) {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (value === undefined || value === null || value === '') return undefined;
      if (Array.isArray(value)) {
        addIssue({ message: `The ${label(field)} field must be a single value, not a list.` });
        return NEVER;
      }
      const number =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)
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
