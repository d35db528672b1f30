import * as v from 'valibot';
import { type FieldErrors, ValidationError } from '#lib/errors.ts';

/** Parses input with a schema, or throws the 422 contract's field errors (one message per field). */
export function validate<Schema extends v.GenericSchema>(schema: Schema, input: unknown): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  // A Map, not an object: a field a client names `__proto__` or `constructor` is a field like any other.
  const errors = new Map<string, string[]>();
  for (const issue of result.issues) {
    const field = String(issue.path?.[0]?.key ?? 'body');
    errors.set(field, [...(errors.get(field) ?? []), issue.message]);
  }
  throw new ValidationError(Object.fromEntries(errors) as FieldErrors);
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
