/**
 * Presenting what functions answer across kinds: an event of the change feed (its record, by its kind's
 * presenter), a deletion. Only the presenters are imported here, never the kinds' documentation, so the feed's
 * function and the bus's publisher stay small. A kind without its presenter does not compile.
 */
import type { EventRecord } from '#lib/data/event-item.ts';
import { padId } from '#lib/data/keys.ts';
import { presentAnsweredDomain, presentDomain } from '#lib/domains/api/present.ts';
import type { EdgeHost } from '#lib/kind-module.ts';
import type { Kind } from '#lib/kinds.ts';
import type { Deleted } from '#lib/schemas/responses.ts';
import { presentSpace } from '#lib/spaces/api/present.ts';
import { presentWebhook } from '#lib/webhooks/api/present.ts';
import type { Event } from './schemas.ts';

/** Each kind's presenter of a record. */
const presenters: Record<Kind, (record: never, edge: EdgeHost) => unknown> = {
  space: presentSpace,
  domain: presentDomain,
  webhook: presentWebhook,
};

/** What an event written before events carried records answered then, as it is shown now (by kind). */
const answeredPresenters: Record<Kind, (answered: unknown, edge: EdgeHost) => unknown> = {
  space: (answered) => answered,
  domain: presentAnsweredDomain,
  webhook: (answered) => answered,
};

const shown = (event: EventRecord, data: unknown) =>
  ({ id: padId(event.id), type: event.type, created_at: event.createdAt, data }) as Event;

/** An event as the feed lists it: its record presented, or (older events) the JSON answered then, as shown now. */
export function presentEvent(event: EventRecord, edge: EdgeHost): Event {
  const { payload, kind } = event;
  if ('record' in payload) return shown(event, presenters[kind](payload.record as never, edge));
  return shown(event, answeredPresenters[kind](payload.answered, edge));
}

/**
 * A new event as the change feed's stream carries it to the bus: its record presented. Every event written
 * since events carried records has one; an event with only the JSON answered then (written before, so never
 * new on the stream) would be passed on as it was answered.
 */
export function presentNewEvent(event: EventRecord, edge: EdgeHost): Event {
  const { payload, kind } = event;
  return shown(event, 'record' in payload ? presenters[kind](payload.record as never, edge) : payload.answered);
}

export const deleted = (object: Deleted['object'], id: number): Deleted => ({ id, object, deleted: true, status: 200 });
