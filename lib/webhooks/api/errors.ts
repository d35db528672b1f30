/**
 * What a webhook's own errors mean to a client: its quota is said on `url`, the field a store names it by; events
 * its key could not read (`EventsBeyondKey`) on `events`, naming the read scopes the key lacks, so the client can
 * either subscribe to fewer events or use a key that holds them; DNS that gave no answer while its URL's host was
 * checked is a 503 with `Retry-After`, as for a verification. The store's and update's handlers are given it
 * (`httpHandler(…, webhookErrors)`).
 */
import { QuotaReached } from '#lib/data/errors.ts';
import { dnsErrors } from '#lib/http/dns-errors.ts';
import { type HttpError, QuotaExceededError, ValidationError } from '#lib/http/errors.ts';
import { EventsBeyondKey, type UnreadablePattern } from '#lib/webhooks/rules/event-patterns.ts';

const list = (conjunction: string) => (words: readonly string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
const and = list('and');
const or = list('or');

const needs = (entries: readonly UnreadablePattern[]) =>
  entries.map(({ pattern, missing }) => `"${pattern}" needs ${and(missing)}`).join('; ');

/** `The events field …`: what the key may not subscribe to, and why. */
export function eventsBeyondKeyMessage(error: EventsBeyondKey): string {
  switch (error.source) {
    case 'sent':
      return `The events field must name only events this key may read: ${needs(error.unreadable)}.`;
    case 'webhook':
      return `The events field must name only events this key may read, and the webhook's do not (${needs(error.unreadable)}): send events this key may read, or use a key that holds those scopes.`;
    case 'default':
      return `The events field must name events this key may read, and it reads none: it needs ${or(error.unreadable[0]?.missing ?? [])}.`;
  }
}

export const webhookErrors = (error: unknown): HttpError | null => {
  if (error instanceof QuotaReached) return new QuotaExceededError('webhook', error.quota, 'url');
  if (error instanceof EventsBeyondKey) return ValidationError.field('events', eventsBeyondKeyMessage(error));
  return dnsErrors(error);
};
