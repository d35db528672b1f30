import * as v from 'valibot';
import type { FeedPosition } from '#lib/data/events.ts';
import { ID_DIGITS } from '#lib/data/keys.ts';
import { characterCount } from './fields.ts';

/** The feed's query. `per_page` falls back to its default like the lists'; a bad `after` or `type` is a 422. */
export const EVENTS_PER_PAGE = { min: 10, max: 100, default: 10 } as const;
export const EVENT_TYPE_FILTER_MAX = 64;
export const AFTER_MESSAGE = 'The after parameter must be a cursor from links.next, or the id of an event.';

/**
 * A feed cursor as `links.next` gives it: `v1.<epoch>.<id>.<since>` (`since` in seconds), readable but to be
 * used as it is. A bare event id (`000000000042`, what the feed gave before cursors) is a position too: valid
 * in any epoch, with nothing known of when its next events were created.
 */
const CURSOR_SOURCE = `v1\\.([0-9]{1,15})\\.([0-9]{1,${ID_DIGITS}})\\.([0-9]{1,12})`;
const BARE_ID_SOURCE = `[0-9]{1,${ID_DIGITS}}`;
const CURSOR_PATTERN = new RegExp(`^${CURSOR_SOURCE}$`);
const BARE_ID_PATTERN = new RegExp(`^${BARE_ID_SOURCE}$`);
/** What `after` accepts, as the OpenAPI document states it. */
export const FEED_CURSOR_PATTERN = `^(${BARE_ID_SOURCE}|${CURSOR_SOURCE})$`;

export const encodeFeedCursor = (position: FeedPosition): string =>
  `v1.${position.epoch ?? 0}.${position.id}.${Math.max(0, Math.floor(position.since / 1000))}`;

function decodeFeedCursor(value: string): FeedPosition {
  if (BARE_ID_PATTERN.test(value)) return { epoch: undefined, id: Number(value), since: 0 };
  const [, epoch, id, since] = CURSOR_PATTERN.exec(value) as RegExpExecArray;
  return { epoch: Number(epoch), id: Number(id), since: Number(since) * 1000 };
}

export const eventQuerySchema = v.object({
  after: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check((value) => BARE_ID_PATTERN.test(value) || CURSOR_PATTERN.test(value), AFTER_MESSAGE),
      v.transform(decodeFeedCursor),
    ),
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
      // Characters, as the document's maxLength counts them (not UTF-16 units).
      v.check(
        (value) => characterCount(value) <= EVENT_TYPE_FILTER_MAX,
        `The type parameter must not be greater than ${EVENT_TYPE_FILTER_MAX} characters.`,
      ),
    ),
    '',
  ),
});

export type EventParams = v.InferOutput<typeof eventQuerySchema>;
