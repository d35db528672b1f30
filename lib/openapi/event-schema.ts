/**
 * The JSON Schemas (2020-12) of the change feed's events where they leave the API, versioned, written by
 * `npm run openapi` from the same schemas as the feed's (`lib/feed/schemas.ts`), every kind of the registry:
 * - `docs/events/event.v1.schema.json`, the `detail` of the events on the EventBridge bus: the event with
 *   `schema_version` and `owner`;
 * - `docs/events/webhook.v1.schema.json`, the body a webhook is POSTed: the event exactly as the feed lists it
 *   (no `schema_version`, no `owner`: a webhook is its owner's), or the `webhook.test` event.
 * A new version gets a new file; a field is only ever added to a version, never changed or removed.
 */
import { type JsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { EVENT_DETAIL_TYPE, EVENT_SCHEMA_VERSION, EVENT_SOURCE } from '#lib/feed/bus.ts';
import { eventSchemas } from '#lib/feed/schemas.ts';
import { collections } from '#lib/kinds.ts';
import { resources } from '#lib/registry.ts';
import { webhookTestEventSchema } from '#lib/webhooks/api/schema.ts';

const onBus = (event: (typeof eventSchemas)[keyof typeof eventSchemas]) =>
  v.strictObject({
    schema_version: v.pipe(v.literal(EVENT_SCHEMA_VERSION), v.description('This schema’s version.')),
    owner: v.pipe(v.string(), v.description('The owner of the API key whose change this is.')),
    ...event.entries,
  });

const registered = () =>
  Object.values(resources).map((module) => ({ title: collections[module.collection].title, module }));

/** The resources' schemas and each kind's event (as `event` makes it), under `$defs`, refs between them. */
function withDefs(
  event: (kind: keyof typeof eventSchemas) => v.GenericSchema,
  others: Record<string, v.GenericSchema> = {},
) {
  const kinds = registered();
  const defs = toJsonSchemaDefs(
    {
      ...Object.fromEntries(kinds.map(({ title, module }) => [title, module.schema])),
      ...Object.fromEntries(kinds.map(({ title, module }) => [`${title}Event`, event(module.kind)])),
      ...others,
    },
    { target: 'draft-2020-12', overrideRef: ({ referenceId }) => `#/$defs/${referenceId}` },
  );
  return { events: kinds.map(({ title }) => ({ $ref: `#/$defs/${title}Event` })), defs };
}

export function eventBusSchema(): JsonSchema {
  const { events, defs } = withDefs((kind) => onBus(eventSchemas[kind]));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:${EVENT_SOURCE}:event:v${EVENT_SCHEMA_VERSION}`,
    title: `Change feed event, version ${EVENT_SCHEMA_VERSION}`,
    description:
      `The \`detail\` of the events on the change feed's EventBridge bus (source \`${EVENT_SOURCE}\`, detail-type ` +
      `\`${EVENT_DETAIL_TYPE}\`): the event as \`GET /api/v1/events\` lists it, with its owner. Route on ` +
      '`detail.type` (for example `{"prefix": "domain."}`) and `detail.owner`. One event per change, delivered at ' +
      'least once and not necessarily in order: order and deduplicate by `id` within an owner. A webhook is sent ' +
      `the event without \`schema_version\` and \`owner\`: webhook.v${EVENT_SCHEMA_VERSION}.schema.json.`,
    anyOf: events,
    $defs: defs,
  } as JsonSchema;
}

export function webhookBodySchema(): JsonSchema {
  const { events, defs } = withDefs((kind) => eventSchemas[kind], { WebhookTestEvent: webhookTestEventSchema });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:${EVENT_SOURCE}:webhook:v${EVENT_SCHEMA_VERSION}`,
    title: `Webhook delivery body, version ${EVENT_SCHEMA_VERSION}`,
    description:
      'The JSON body POSTed to a webhook: one event of its owner’s change feed, byte for byte as ' +
      '`GET /api/v1/events` lists it (`id`, `type`, `created_at`, `data`: the resource after the change), or the ' +
      '`webhook.test` event of `POST /api/v1/webhooks/{id}/test` (`id` `test_…`, the webhook as `data`). Verify ' +
      'the Standard Webhooks signature over the body as received before parsing it; deliveries are at least ' +
      'once and not necessarily in order: deduplicate by the `webhook-id` header, order by `id`.',
    anyOf: [...events, { $ref: '#/$defs/WebhookTestEvent' }],
    $defs: defs,
  } as JsonSchema;
}
