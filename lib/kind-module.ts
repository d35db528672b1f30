/**
 * What a resource kind is, as one value (`ResourceModule`): its kind and collection, its request bodies and
 * the documentation and examples of their fields, its response schema, its presenter and its event types. The
 * registry (`registry.ts`) holds one per kind; the OpenAPI document, the event bus's schema, the change feed's
 * presenter and the fuzzer read them from there, so adding a kind is adding its module to the registry (a kind
 * missing from it does not compile: `test/types/registry.ts`).
 *
 * Handlers do not import the module value: they import their kind's request schema and presenter from the
 * kind's own files, so a function's bundle carries neither the documentation nor the other kinds.
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import type { ResourceRecord } from '#lib/data/item.ts';
import type { Collection, Kind } from '#lib/kinds.ts';
import type { Encoding } from '#lib/schemas/fields.ts';
import type { BodyField, Mode, RequestBody } from '#lib/schemas/request.ts';

/**
 * What showing a resource takes from the stack: the edge's host name, a domain's CNAME target (`EDGE_HOSTNAME`),
 * and its routing endpoint where that is another name (`EDGE_ROUTING_ENDPOINT`): a zone apex's ALIAS target.
 */
export type EdgeHost = { edgeHostname: string; edgeRoutingEndpoint?: string };

/** A request field's documentation (its JSON Schema in the document), by mode and media type. */
export type FieldDoc = (mode: Mode, encoding: Encoding) => JsonSchema;

type AnyBody = RequestBody<Record<string, BodyField<unknown>>>;
type FieldsOf<Body extends AnyBody> = keyof Body['fields'] & string;

/** One documentation per field of the bodies: a field without one does not compile. */
export type FieldDocs<Bodies extends Record<Mode, AnyBody>> = Record<
  FieldsOf<Bodies['store']> | FieldsOf<Bodies['update']>,
  FieldDoc
>;

/** A field's documentation that refers to a shared field type of its kind (`ResourceModule['fieldTypes']`). */
export const fieldType = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A request body example per media type (a form sends strings). */
export type RequestExample = Record<Encoding, Record<string, unknown>>;

export type ResourceModule<K extends Kind, Resource, R extends ResourceRecord> = {
  kind: K;
  collection: Collection;
  /** What the kind is, in a sentence: its group's description in the document. */
  description: string;
  /** The request bodies (store and update), each field's documentation, and an example of each body. */
  bodies: Record<Mode, AnyBody>;
  fieldDocs: Record<string, FieldDoc>;
  /**
   * Field types several bodies share, by component name (`SpaceName`): a field's documentation refers to one
   * (`fieldType`), so that the document holds a long pattern, and its description, once.
   */
  fieldTypes?: Record<string, () => JsonSchema>;
  requestExamples: Record<Mode, RequestExample>;
  /** The resource as the API shows it (strict: the document and the contract tests read it). */
  schema: v.GenericSchema<unknown, Resource>;
  /** The resource shown, and as a store answers it. */
  examples: { shown: Resource; stored: Resource };
  present: (record: R, edge: EdgeHost) => Resource;
  /** Sentences the document adds to an operation's description, where the kind differs. */
  notes?: Partial<Record<'store' | 'destroy', string>>;
  /** The store's answer when it shows more than `schema` (a webhook's secret), under its component name. */
  stored?: { name: string; schema: v.GenericSchema };
  /** Schemas the kind's item actions answer with (a webhook's deliveries), by component name. */
  components?: Record<string, v.GenericSchema>;
};

/**
 * The fields of a resource a client never writes: the response's fields that no request body has. Written as
 * a list (so that a function's bundle does not import the response schema to compute it), checked here to be
 * exactly that: a field missing from the list, or one too many, does not compile.
 */
export const readOnlyFields =
  <Resource, Writable extends string>() =>
  <const List extends readonly Exclude<keyof Resource & string, Writable>[]>(
    list: List & ([Exclude<keyof Resource & string, Writable>] extends [List[number]] ? unknown : 'a field is missing'),
  ): List =>
    list;

/**
 * Maps a body's fields to the names the record stores them under: the one name map between the API's names
 * (`index_page`) and the record's (`indexPage`); fields it does not name keep their name.
 */
export function storedFields<Names extends Record<string, string>, Body extends Record<string, unknown>>(
  names: Names,
  body: Body,
): { [F in keyof Body as F extends keyof Names ? Names[F] : F]: Body[F] } {
  return Object.fromEntries(Object.entries(body).map(([field, value]) => [names[field] ?? field, value])) as never;
}

/** A record's value as shown: absent (a record stored before its field existed) is null. */
type Shown<Value> = Exclude<Value, undefined> | (undefined extends Value ? null : never);

/**
 * The writable fields of a record as the API names them: the name map read the other way. A field the record
 * does not hold (stored before the field existed) is shown as null, so a new field needs no migration.
 */
export function shownFields<Names extends Record<string, string>, R extends { [S in Names[keyof Names]]?: unknown }>(
  names: Names,
  record: R,
): { [F in keyof Names]: Shown<R[Names[F]]> } {
  return Object.fromEntries(
    Object.entries(names).map(([field, stored]) => [field, record[stored as keyof R] ?? null]),
  ) as never;
}

/**
 * A body's schema with its output mapped (to the record's names, with defaults). Annotate the call as pure
 * (`@__PURE__`), as every call that makes a request schema at module scope: a function that does not use the
 * schema then drops it, and its fields, from its bundle (esbuild honours call-site annotations only).
 */
export function mapped<Output, Mapped>(
  body: { schema: v.GenericSchema<unknown, Output> },
  map: (output: Output) => Mapped,
): v.GenericSchema<unknown, Mapped> {
  return v.pipe(body.schema, v.transform(map));
}
