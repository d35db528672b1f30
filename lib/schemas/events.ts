import * as v from 'valibot';
import { ID_DIGITS } from '#lib/data/keys.ts';

/** The feed's query. `per_page` falls back to its default like the lists'; a bad `after` or `type` is a 422. */
export const EVENTS_PER_PAGE = { min: 10, max: 100, default: 10 } as const;
export const EVENT_TYPE_FILTER_MAX = 64;
export const AFTER_MESSAGE = 'The after must be the id of an event.';

export const eventQuerySchema = v.object({
  after: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(new RegExp(`^\\d{1,${ID_DIGITS}}$`), AFTER_MESSAGE), v.transform(Number)),
    '0',
  ),
  per_page: v.fallback(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^\d{1,3}$/),
      v.transform(Number),
      v.minValue(EVENTS_PER_PAGE.min),
      v.maxValue(EVENTS_PER_PAGE.max),
    ),
    EVENTS_PER_PAGE.default,
  ),
  type: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(EVENT_TYPE_FILTER_MAX, `The type may not be greater than ${EVENT_TYPE_FILTER_MAX} characters.`),
    ),
    '',
  ),
});

export type EventParams = v.InferOutput<typeof eventQuerySchema>;
