import * as v from 'valibot';
import { type FieldErrors, ValidationError } from '#lib/http/errors.ts';

/**
 * The most fields a 422 lists. A body can name thousands of fields the schema does not take (4,000 made a
 * 174 KB answer); the first ones are enough to fix a request, and the message says how many more there are.
 */
export const MAX_LISTED_FIELDS = 20;

const moreFields = (count: number) => ` (and ${count} more field${count === 1 ? '' : 's'} with errors, not listed)`;

/** Parses input with a schema, or throws the 422 contract's field errors (one message per field). */
export function validate<Schema extends v.GenericSchema>(schema: Schema, input: unknown): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  // A Map, not an object: a field a client names `__proto__` or `constructor` is a field like any other.
  const errors = new Map<string, string[]>();
  const unlisted = new Set<string>();
  for (const issue of result.issues) {
    const field = String(issue.path?.[0]?.key ?? 'body');
    const listed = errors.get(field);
    if (listed) listed.push(issue.message);
    else if (errors.size < MAX_LISTED_FIELDS) errors.set(field, [issue.message]);
    else unlisted.add(field);
  }
  const fields = Object.fromEntries(errors) as FieldErrors;
  if (unlisted.size === 0) throw new ValidationError(fields);
  const [first = ''] = errors.values().next().value ?? [];
  throw new ValidationError(fields, `${first}${moreFields(unlisted.size)}`);
}

/**
 * Validates changes to an existing resource. Invalid input for an id the owner does not have is a 404, not a
 * 422, as if the resource were looked up first; the lookup costs a read only when validation fails.
 */
export async function validateChanges<Schema extends v.GenericSchema>(
  schema: Schema,
  input: unknown,
  assertExists: () => Promise<unknown>,
): Promise<v.InferOutput<Schema>> {
  try {
    return validate(schema, input);
  } catch (error) {
    await assertExists();
    throw error;
  }
}
