/**
 * Request bodies, one schema per media type: JSON is strict (`additionalProperties: false`, JSON types), a
 * form is lenient (strings, other fields ignored). The fields, which are required and which the resource has
 * but a client never writes come from each kind's request bodies (`requestBody`), and each field's type,
 * limits and pattern from the documentation beside its definition (`lib/<kind>/api/`): the request
 * schemas check with custom code, so the documentation states them from the same constants and character
 * rules (`characterClass` turns a rule into the pattern's ranges).
 *
 * The patterns describe what to send: the form the service stores. It also takes a name padded with spaces,
 * a domain name in upper case, in Unicode or with `https://` and `/` around it, a color with leading zeros, a
 * page it normalizes (no path, a Unicode host); it refuses nothing these patterns (and lengths) allow, but for
 * what they cannot state (a page on the domain itself, a name already taken), which the descriptions say: a
 * tool that generates values from the patterns gets them accepted (`test/unit/request-schemas.test.ts`).
 */

import type { JsonSchema } from '@valibot/to-json-schema';
import { collectionNames, collections } from '#lib/kinds.ts';
import { resources } from '#lib/registry.ts';
import type { Encoding } from '#lib/schemas/fields.ts';
import type { Mode } from '#lib/schemas/request.ts';

/** What the document needs of a request schema: its fields, which are required, and the read-only ones. */
type Body = { fields: Record<string, { required: boolean }>; readOnly: readonly string[] };

function bodySchema(body: Body, docs: Record<string, JsonSchema>, encoding: Encoding): JsonSchema {
  const fields = Object.keys(body.fields);
  const undocumented = fields.filter((field) => !(field in docs));
  if (undocumented.length > 0) throw new Error(`Request fields without documentation: ${undocumented.join(', ')}`);
  const required = fields.filter((field) => body.fields[field]?.required);
  const readOnly = body.readOnly.map((field) => `\`${field}\``).join(', ');
  return {
    type: 'object',
    description:
      encoding === 'form'
        ? 'Other fields are ignored.'
        : 'Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.`' +
          (readOnly === ''
            ? ''
            : `, or for the resource's own fields, which a client never writes (${readOnly}), \`The <field> field cannot be changed.\``),
    properties: Object.fromEntries(fields.map((field) => [field, docs[field] as JsonSchema])),
    ...(required.length > 0 ? { required } : {}),
    ...(encoding === 'json' ? { additionalProperties: false } : {}),
  };
}

/** The component name of a request body's schema: `StoreSpaceRequest` (JSON), `StoreSpaceForm` (form). */
export const requestSchemaName = (mode: Mode, title: string, encoding: Encoding) =>
  `${mode === 'store' ? 'Store' : 'Update'}${title}${encoding === 'json' ? 'Request' : 'Form'}`;

/** The field types the request bodies share (`ResourceModule['fieldTypes']`), by component name. */
export function requestFieldTypes(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.values(resources).flatMap((module) =>
      Object.entries('fieldTypes' in module ? module.fieldTypes : {}).map(([name, schema]) => [name, schema()]),
    ),
  );
}

/** Request body schemas by component name, per collection, mode and media type. */
export function requestSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(
    collectionNames.flatMap((name) => {
      const { kind, title } = collections[name];
      const { bodies, fieldDocs } = resources[kind];
      return (['store', 'update'] as const).flatMap((mode) =>
        (['json', 'form'] as const).map((encoding) => {
          const docs = Object.fromEntries(
            Object.entries(fieldDocs).map(([field, doc]) => [field, doc(mode, encoding)]),
          );
          return [requestSchemaName(mode, title, encoding), bodySchema(bodies[mode], docs, encoding)];
        }),
      );
    }),
  );
}
