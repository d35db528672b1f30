/**
 * A request body's schema, built from its fields. The same fields are read by the rules of the body's
 * encoding (`encodingOf`): a form leniently, as it always was (strings everywhere, a blank field for none,
 * unknown fields ignored); JSON strictly (the JSON type the field has, and no field the body does not list:
 * an unknown field is a 422 naming it, a field of the resource that cannot be written says so).
 */
import * as v from 'valibot';
import { type Encoding, encodingOf, label } from './fields.ts';

/** What a request body is for: a store (every required field) or an update (any of them). */
export type Mode = 'store' | 'update';

/** One field: its schema in each encoding, run on a present value; whether it is required, or what absent means. */
export type BodyField<Output> = {
  schema: (encoding: Encoding) => v.GenericSchema<unknown, Output>;
  required: boolean;
  /** The value of an absent optional field (undefined: left out, as "unchanged"). */
  absent?: Output;
};

export const required = <Output>(schema: BodyField<Output>['schema']): BodyField<Output> => ({
  schema,
  required: true,
});

export const optional = <Output>(schema: BodyField<Output>['schema'], absent?: Output): BodyField<Output> => ({
  schema,
  required: false,
  ...(absent === undefined ? {} : { absent }),
});

type Fields = Record<string, BodyField<unknown>>;
type Output<F extends Fields> = { [K in keyof F]: F[K] extends BodyField<infer O> ? O : never };

/** An unknown field is named as the client wrote it; the API's own fields as its other messages name them. */
export const notAllowedMessage = (field: string) => `The ${field} field is not allowed.`;
export const readOnlyMessage = (field: string) => `The ${label(field)} field cannot be changed.`;

export type RequestBody<F extends Fields> = {
  /** Validates a body of either encoding (a form body is marked by `asForm`, anything else is JSON). */
  schema: v.GenericSchema<unknown, Output<F>>;
  fields: F;
  /** Fields of the resource a JSON body may not carry: named as such (`cannot be changed`), not as unknown. */
  readOnly: readonly string[];
};

type PathItem = v.ObjectPathItem;

/** A body of these fields; `readOnly` names the resource's fields the body does not let a client write. */
export function requestBody<F extends Fields>(fields: F, { readOnly = [] }: { readOnly?: readonly string[] } = {}) {
  const schemas: Record<Encoding, Record<string, v.GenericSchema>> = {
    form: Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.schema('form')])),
    json: Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, field.schema('json')])),
  };
  const schema = v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, config, addIssue, NEVER }) => {
      const input = dataset.value;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) {
        addIssue({ message: 'The request body must be a JSON object.' });
        return NEVER;
      }
      const record = input as Record<string, unknown>;
      const encoding = encodingOf(record);
      const path = (key: string): [PathItem] => [
        { type: 'object', origin: 'value', input: record, key, value: record[key] },
      ];
      // Strict JSON: every field the body does not list is an error of its own, before the fields' errors.
      if (encoding === 'json') {
        for (const key of Object.keys(record)) {
          if (Object.hasOwn(fields, key)) continue;
          addIssue({
            message: readOnly.includes(key) ? readOnlyMessage(key) : notAllowedMessage(key),
            path: path(key),
          });
        }
      }
      const output: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(fields)) {
        const value = Object.hasOwn(record, key) ? record[key] : undefined;
        if (value === undefined) {
          if (field.required) addIssue({ message: `The ${label(key)} field is required.`, path: path(key) });
          else if (field.absent !== undefined) output[key] = field.absent;
          continue;
        }
        const result = v.safeParse(
          schemas[encoding][key] as v.GenericSchema,
          value,
          config as v.Config<v.BaseIssue<unknown>>,
        );
        if (result.success) {
          if (result.output !== undefined) output[key] = result.output;
        } else {
          for (const issue of result.issues) addIssue({ message: issue.message, path: path(key) });
        }
      }
      return dataset.issues ? NEVER : (output as Output<F>);
    }),
  );
  return { schema, fields, readOnly } satisfies RequestBody<F>;
}
