/** The document's component schemas, converted from the response schemas the presenters are typed by. */
import { type JsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { eventListSchema, eventSchema, eventSchemas } from '#lib/feed/schemas.ts';
import { collections } from '#lib/kinds.ts';
import { resources } from '#lib/registry.ts';
import {
  deletedSchema,
  errorSchema,
  listLinksSchema,
  listMetaSchema,
  listSchema,
  singleSchema,
  validationErrorSchema,
} from '#lib/schemas/responses.ts';

export const schemaRef = (name: SchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** Each kind's schemas, named after its title (`Space`, `SpaceResponse`, `SpaceList`, `SpaceEvent`), in registry order. */
const registered = Object.values(resources).map((module) => ({ title: collections[module.collection].title, module }));
const byTitle = (
  name: (title: string) => string,
  schema: (module: (typeof registered)[number]['module']) => v.GenericSchema,
) => Object.fromEntries(registered.map(({ title, module }) => [name(title), schema(module)]));

const definitions = {
  ...byTitle(
    (title) => title,
    (module) => module.schema,
  ),
  ...byTitle(
    (title) => `${title}Response`,
    (module) => singleSchema(module.schema),
  ),
  ...byTitle(
    (title) => `${title}List`,
    (module) => listSchema(module.schema),
  ),
  ...Object.fromEntries(
    registered.flatMap(({ module }) =>
      'stored' in module
        ? [
            [module.stored.name, module.stored.schema],
            [`${module.stored.name}Response`, singleSchema(module.stored.schema)],
          ]
        : [],
    ),
  ),
  ...Object.fromEntries(
    registered.flatMap(({ module }) => Object.entries('components' in module ? module.components : {})),
  ),
  ListLinks: listLinksSchema,
  ListMeta: listMetaSchema,
  Deleted: deletedSchema,
  ...byTitle(
    (title) => `${title}Event`,
    (module) => eventSchemas[module.kind],
  ),
  Event: eventSchema,
  EventList: eventListSchema,
  Error: errorSchema,
  ValidationError: validationErrorSchema,
};

type Title = (typeof collections)[keyof typeof collections]['title'];
type Module = (typeof registered)[number]['module'];
/** The names a kind's module gives its own schemas (a store's answer, an item action's). */
type Named = Module extends infer M
  ? M extends { stored: { name: infer N extends string } }
    ? N | `${N}Response`
    : never
  : never;
type Components = Module extends infer M ? (M extends { components: infer C } ? keyof C & string : never) : never;
export type SchemaName =
  | Title
  | Named
  | Components
  | `${Title}${'Response' | 'List' | 'Event'}`
  | 'ListLinks'
  | 'ListMeta'
  | 'Deleted'
  | 'Event'
  | 'EventList'
  | 'Error'
  | 'ValidationError';

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect); references between them point into `components`. */
export function responseSchemas(): Record<SchemaName, JsonSchema> {
  return toJsonSchemaDefs(definitions, {
    target: 'draft-2020-12',
    overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  }) as Record<SchemaName, JsonSchema>;
}
