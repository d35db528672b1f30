/**
 * The change feed's events as the API shows them: one schema per kind (its types, its resource after the
 * change), from the registry; the feed's page; the types the presenter answers. The document and the event
 * bus's schema are generated from these (`lib/openapi`).
 */
import * as v from 'valibot';
import { EVENT_RETENTION_DAYS } from '#lib/data/event-item.ts';
import { ID_DIGITS } from '#lib/data/keys.ts';
import { type EventType, eventTypes, type Kind } from '#lib/kinds.ts';
import { type ResourceOf, resources } from '#lib/registry.ts';
import { EVENTS_PER_PAGE } from '#lib/schemas/events.ts';
import { integer, timestamp, url } from '#lib/schemas/values.ts';

/** The event types of a kind: `domain.created`, `domain.verified`, … */
export const eventTypesOf = <K extends Kind>(kind: K) =>
  eventTypes.filter((type): type is Extract<EventType, `${K}.${string}`> => type.startsWith(`${kind}.`));

/** One change of one resource of a kind, as the feed lists it (and the event bus carries it, with the owner). */
const eventOf = <K extends Kind>(kind: K) =>
  v.strictObject({
    id: v.pipe(
      v.string(),
      v.regex(new RegExp(`^[0-9]{${ID_DIGITS}}$`)),
      v.description(
        'Increases by one with every change of the owner, in the order the changes committed (events from before gapless ids may have gaps).',
      ),
    ),
    type: v.picklist(eventTypesOf(kind)),
    created_at: timestamp('When the change committed'),
    data: v.pipe(
      resources[kind].schema as unknown as v.GenericSchema<unknown, ResourceOf<K>>,
      v.description(`The ${kind} after the change; for a delete, its last state.`),
    ),
  });

/** The kinds in registry order. */
const registered = Object.keys(resources) as Kind[];

/** Each kind's event schema, by kind. */
export const eventSchemas = /* @__PURE__ */ Object.fromEntries(registered.map((kind) => [kind, eventOf(kind)])) as {
  [K in Kind]: ReturnType<typeof eventOf<K>>;
};

export const eventSchema = /* @__PURE__ */ v.pipe(
  v.union(registered.map((kind) => eventSchemas[kind])),
  v.description(`A change: kept ${EVENT_RETENTION_DAYS} days.`),
);

export const eventListSchema = /* @__PURE__ */ v.strictObject({
  data: v.array(eventSchema),
  links: v.strictObject({
    first: url('The oldest events.'),
    next: url(
      'Where to continue: follow it at once while `meta.has_more`, or later to poll for new events. Never null.',
    ),
  }),
  meta: v.strictObject({
    path: url('The feed URL without its query.'),
    per_page: integer(EVENTS_PER_PAGE.min, EVENTS_PER_PAGE.max),
    has_more: v.pipe(v.boolean(), v.description('More events are there already: follow `links.next` now.')),
  }),
  status: v.literal(200),
});

/** An event of one kind, as the feed lists it. */
export type EventOf<K extends Kind> = {
  id: string;
  type: Extract<EventType, `${K}.${string}`>;
  created_at: string;
  data: ResourceOf<K>;
};
export type Event = { [K in Kind]: EventOf<K> }[Kind];
export type EventList = Omit<v.InferOutput<typeof eventListSchema>, 'data'> & { data: Event[] };
