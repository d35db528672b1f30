/** The document's component schemas, converted from the response schemas the presenters are typed by. */
import { type JsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import {
  deletedSchema,
  domainEventSchema,
  domainSchema,
  errorSchema,
  eventListSchema,
  eventSchema,
  listLinksSchema,
  listMetaSchema,
  listSchema,
  singleSchema,
  spaceEventSchema,
  spaceSchema,
  validationErrorSchema,
} from '#lib/schemas/responses.ts';

export const schemaRef = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

const definitions = {
  Space: spaceSchema,
  Domain: domainSchema,
  SpaceResponse: singleSchema(spaceSchema),
  DomainResponse: singleSchema(domainSchema),
  SpaceList: listSchema(spaceSchema),
  DomainList: listSchema(domainSchema),
  ListLinks: listLinksSchema,
  ListMeta: listMetaSchema,
  Deleted: deletedSchema,
  SpaceEvent: spaceEventSchema,
  DomainEvent: domainEventSchema,
  Event: eventSchema,
  EventList: eventListSchema,
  Error: errorSchema,
  ValidationError: validationErrorSchema,
};

export type SchemaName = keyof typeof definitions;

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect); references between them point into `components`. */
export function responseSchemas(): Record<SchemaName, JsonSchema> {
  return toJsonSchemaDefs(definitions, {
    target: 'draft-2020-12',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  });
}
