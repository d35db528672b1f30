/**
 * Which events a webhook wants: a list of patterns, each an event type (`space.created`), a kind's family
 * (`domain.*`), or every event (`*`). Checked against the event types there are (`lib/kinds.ts`), so a pattern
 * that could never match (a typo, a family that does not exist) is refused when the webhook is stored.
 *
 * And which of them a key may have delivered: only the events it could read in the feed, those of the
 * collections it holds `<collection>:read` of (the feed's rule, `lib/feed/page.ts`). `*` needs every read
 * scope. Pure.
 */
import { type Collection, collectionNames, collections, eventTypes, kinds, type Scope } from '#lib/kinds.ts';

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

/** The collection whose events have this type (`domain.created`: domains), or null for none (`webhook.test`). */
export function collectionOfEvent(type: string): Collection | null {
  const kind = type.slice(0, type.indexOf('.'));
  return collectionNames.find((collection) => collections[collection].kind === kind) ?? null;
}

/** The collections whose events a pattern can match: every one for `*`. */
const collectionsOfPattern = (pattern: string): Collection[] => {
  if (pattern === ALL_EVENTS) return [...collectionNames];
  const collection = collectionOfEvent(pattern);
  return collection ? [collection] : [];
};

const readScope = (collection: Collection): Scope => `${collection}:read`;

/** Whether a key with these scopes could read an event of this type in the feed. */
export const readsEvent = (scopes: readonly Scope[], type: string): boolean => {
  const collection = collectionOfEvent(type);
  return collection !== null && scopes.includes(readScope(collection));
};

/** A pattern the key may not subscribe to, and the read scopes it lacks for it. */
export type UnreadablePattern = { pattern: string; missing: Scope[] };

/**
 * Patterns that name events the key could not read: a webhook may not be directed to them. The domain's word
 * for it; the HTTP layer says it on `events` (`lib/webhooks/api/errors.ts`).
 */
export class EventsBeyondKey extends Error {
  override name = 'EventsBeyondKey';
  constructor(
    readonly unreadable: readonly UnreadablePattern[],
    /**
     * Whose patterns: the request's (`sent`); the webhook's own, which the request redirects or enables
     * (`webhook`); or none sent, to a key that reads no events (`default`).
     */
    readonly source: 'sent' | 'webhook' | 'default',
  ) {
    super(`Patterns beyond the key: ${unreadable.map((entry) => entry.pattern).join(', ')}`);
  }
}

/** Each pattern the key may not subscribe to, with the read scopes it lacks. */
export const unreadablePatterns = (patterns: readonly string[], scopes: readonly Scope[]): UnreadablePattern[] =>
  patterns.flatMap((pattern) => {
    const missing = collectionsOfPattern(pattern)
      .map(readScope)
      .filter((scope) => !scopes.includes(scope));
    return missing.length > 0 ? [{ pattern, missing }] : [];
  });

/** Throws `EventsBeyondKey` unless the key could read every event the patterns name. */
export function assertReadable(
  patterns: readonly string[],
  scopes: readonly Scope[],
  source: 'sent' | 'webhook' = 'sent',
): void {
  const unreadable = unreadablePatterns(patterns, scopes);
  if (unreadable.length > 0) throw new EventsBeyondKey(unreadable, source);
}

/**
 * What a new webhook subscribes to: the patterns sent, if the key could read them all; when none are sent,
 * every event the key may read: `*` for a key with every read scope, else the family of each collection it
 * reads (`['domain.*']` for `domains:read`). A key that reads nothing is refused (nothing to deliver).
 */
export function subscribedPatterns(sent: readonly string[] | undefined, scopes: readonly Scope[]): string[] {
  if (sent !== undefined) {
    assertReadable(sent, scopes);
    return [...sent];
  }
  const readable = collectionNames.filter((collection) => scopes.includes(readScope(collection)));
  if (readable.length === collectionNames.length) return [ALL_EVENTS];
  if (readable.length === 0) {
    throw new EventsBeyondKey([{ pattern: ALL_EVENTS, missing: collectionNames.map(readScope) }], 'default');
  }
  return readable.map((collection) => `${collections[collection].kind}.*`);
}
