/**
 * Which events a webhook wants: a list of patterns, each an event type (`space.created`), a kind's family
 * (`domain.*`), or every event (`*`). Checked against the event types there are (`lib/kinds.ts`), so a pattern
 * that could never match (a typo, a family that does not exist) is refused when the webhook is stored. Pure.
 */
import { eventTypes, kinds } from '#lib/kinds.ts';

/** Every event, the default. */
export const ALL_EVENTS = '*';
/** A webhook names at most this many patterns. */
export const EVENT_PATTERNS_MAX = 32;

/** Whether a pattern names an event type, a family of them, or all. */
export const isEventPattern = (pattern: string): boolean =>
  pattern === ALL_EVENTS ||
  (eventTypes as readonly string[]).includes(pattern) ||
  kinds.some((kind) => pattern === `${kind}.*`);

/** Whether an event of this type is one the patterns want. */
export const matchesPatterns = (patterns: readonly string[], type: string): boolean =>
  patterns.some(
    (pattern) =>
      pattern === ALL_EVENTS || pattern === type || (pattern.endsWith('.*') && type.startsWith(pattern.slice(0, -1))),
  );
