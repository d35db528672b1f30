/** Small helpers shared by the unit and integration suites. */
import type { ListQuery } from '#lib/data/listing.ts';
import { ValidationError } from '#lib/http/errors.ts';
import { validate } from '#lib/http/validate.ts';

/** The data module's list query with the API's defaults, overridden where a test says so. */
export const listQuery = (overrides: Partial<ListQuery> = {}): ListQuery => ({
  search: '',
  sortBy: 'id',
  sort: 'desc',
  perPage: 10,
  page: 1,
  ...overrides,
});

/** The 422 field errors a schema answers for this input, or null when it passes. */
export function errorsOf(schema: Parameters<typeof validate>[0], input: unknown) {
  try {
    validate(schema, input);
    return null;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.errors;
  }
}

/** What a promise rejects with; fails when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
