/**
 * A space as the API shows it: the response schema the presenter (`present.ts`) is typed by and the document
 * is generated from, and its example. Functions import only its type.
 */
import * as v from 'valibot';
import { id, integer, text, timestamp } from '#lib/schemas/values.ts';
import { COLORS, SPACE_NAME_MAX } from './limits.ts';

/** The space as the API shows it. */
export const spaceSchema = v.strictObject({
  id,
  name: text(SPACE_NAME_MAX, 'Unique per owner, ignoring case.'),
  color: v.pipe(integer(COLORS.min, COLORS.max), v.description('Color code.')),
  created_at: timestamp('When the space was stored'),
  updated_at: timestamp('When the space last changed'),
});
export type Space = v.InferOutput<typeof spaceSchema>;

const at = '2025-01-15T09:30:00.000Z';
const later = '2025-02-03T16:05:12.345Z';

export const spaceExample: Space = { id: 7, name: 'Marketing', color: 3, created_at: at, updated_at: later };
