import * as v from 'valibot';
import { type FieldErrors, ValidationError } from '#lib/errors.ts';

/** Parses input with a schema, or throws the 422 contract's field errors (one message per field). */
export function validate<Schema extends v.GenericSchema>(schema: Schema, input: unknown): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const errors: FieldErrors = {};
  for (const issue of result.issues) {
    const field = String(issue.path?.[0]?.key ?? 'body');
    errors[field] ??= [];
    errors[field].push(issue.message);
  }
  throw new ValidationError(errors);
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
