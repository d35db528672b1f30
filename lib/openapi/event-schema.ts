/**
 * The JSON Schema (2020-12) of the events on the EventBridge bus, versioned: `docs/events/event.v1.schema.json`,
 * written by `npm run openapi` from the same schemas as the feed's (`lib/resources/events.ts`), every kind of the
 * registry. A new version gets a new file; a field is only ever added to a version, never changed or removed.
 */
import { type JsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { EVENT_DETAIL_TYPE, EVENT_SCHEMA_VERSION, EVENT_SOURCE } from '#lib/events-bus.ts';
import { collections } from '#lib/kinds.ts';
import { eventSchemas } from '#lib/resources/events.ts';
import { resources } from '#lib/resources/registry.ts';

const onBus = (event: (typeof eventSchemas)[keyof typeof eventSchemas]) =>
  v.strictObject({
    schema_version: v.pipe(v.literal(EVENT_SCHEMA_VERSION), v.description('This schema’s version.')),
    owner: v.pipe(v.string(), v.description('The owner of the API key whose change this is.')),
    ...event.entries,
  });

export function eventBusSchema(): JsonSchema {
  const registered = Object.values(resources).map((module) => ({
    title: collections[module.collection].title,
    module,
  }));
  const defs = toJsonSchemaDefs(
    {
      ...Object.fromEntries(registered.map(({ title, module }) => [title, module.schema])),
      ...Object.fromEntries(registered.map(({ title, module }) => [`${title}Event`, onBus(eventSchemas[module.kind])])),
    },
    { target: 'draft-2020-12', overrideRef: ({ referenceId }) => `#/$defs/${referenceId}` },
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:${EVENT_SOURCE}:event:v${EVENT_SCHEMA_VERSION}`,
    title: `Change feed event, version ${EVENT_SCHEMA_VERSION}`,
    description:
      `The \`detail\` of the events on the change feed's EventBridge bus (source \`${EVENT_SOURCE}\`, detail-type ` +
      `\`${EVENT_DETAIL_TYPE}\`): the event as \`GET /api/v1/events\` lists it, with its owner. Route on ` +
      '`detail.type` (for example `{"prefix": "domain."}`) and `detail.owner`. One event per change, delivered at ' +
      'least once and not necessarily in order: order and deduplicate by `id` within an owner.',
    anyOf: registered.map(({ title }) => ({ $ref: `#/$defs/${title}Event` })),
    $defs: defs,
  } as JsonSchema;
}
