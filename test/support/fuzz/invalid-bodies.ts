/**
 * Invalid bodies, each a valid one with one thing wrong: a wrong JSON type, an unknown or read-only field, a
 * value one past its limit, a forbidden character, a lone surrogate, a missing field, a list in a form, a URL of
 * another scheme, a value outside an enumeration, a list too short, too long or with an unknown item.
 */
import fc from 'fast-check';
import type { Schema } from '#test/support/fuzz/operations.ts';
import { FORBIDDEN_IN_NAMES } from '#test/support/fuzz/valid-values.ts';
import { resolveRef } from '#test/support/openapi.ts';

export type Mutation = { note: string; body: Record<string, unknown> | string; confirm: boolean };

const typeOf = (schema: Schema): string[] => {
  const resolved = resolveRef<Schema>(schema).value;
  if (resolved.anyOf) return resolved.anyOf.flatMap(typeOf);
  if ('const' in resolved) return [resolved.const === null ? 'null' : typeof resolved.const];
  return [resolved.type ?? []].flat();
};

/** Values of other JSON types than the schema's. */
function wrongValues(schema: Schema): unknown[] {
  const types = typeOf(schema);
  const pool: [string, unknown][] = [
    ['string', '3'],
    ['string', ''],
    ['integer', 3],
    ['number', 2.5],
    ['boolean', true],
    ['null', null],
    ['object', { value: 3 }],
    ['array', ['a']],
  ];
  return pool
    .filter(([type]) => !types.includes(type) && !(type === 'integer' && types.includes('number')))
    .map(([, value]) => value);
}

/** A value one past the field's length limit, shaped like a valid one. */
function tooLong(name: string, schema: Schema): string | undefined {
  const resolved = resolveRef<Schema>(schema).value;
  const max = resolved.maxLength ?? resolved.anyOf?.find((entry) => entry.maxLength)?.maxLength;
  if (max === undefined) return undefined;
  if (name === 'name' && max < 100) return 'x'.repeat(max + 1);
  if (name === 'name') {
    // Labels of 63, then one to make max + 1 characters in all.
    const labels: string[] = [];
    let length = 0;
    while (length + 64 < max + 1) {
      labels.push('a'.repeat(63));
      length += 64;
    }
    labels.push('b'.repeat(max + 1 - length));
    return labels.join('.');
  }
  const base = 'https://www.example.org/';
  return base + 'p'.repeat(max + 1 - base.length);
}

/**
 * Whether the document itself refuses a value of this length: every form of the field has a length limit below
 * it. (A domain name's pasted form has none: the service trims the spaces around it, so its description states
 * the limit of the name, which the service checks with its own 422.)
 */
function lengthRefused(schema: Schema, value: string): boolean {
  const resolved = resolveRef<Schema>(schema).value;
  const forms = resolved.anyOf?.filter((entry) => entry.type === 'string') ?? [resolved];
  return forms.every((entry) => entry.maxLength !== undefined && entry.maxLength < [...value].length);
}

/** URLs of another scheme, or not absolute: outside a URL field's pattern (`^https?://`). */
const OTHER_URLS = [
  'ftp://hooks.example.com/hook',
  'wss://hooks.example.com/hook',
  'hooks.example.com/hook',
  '//hooks.example.com/hook',
  'https:/hooks.example.com/hook',
  'javascript:alert(1)',
  'file:///etc/passwd',
];

/** Patterns of events no kind has, or not written as a pattern. */
const UNKNOWN_ITEMS = ['space.exploded', 'Space.*', 'domain.**', '*.*', 'space', 'webhook.test', 'domains.created'];

/** Values outside a URL field's pattern, outside an enumeration, lists too short or too long. */
function valueMutations(
  body: Record<string, unknown>,
  name: string,
  property: Schema,
  form: boolean,
): fc.Arbitrary<Mutation>[] {
  const schema = resolveRef<Schema>(property).value;
  const options: fc.Arbitrary<Mutation>[] = [];
  const at = (value: unknown, note: string, confirm = true) => ({ note, body: { ...body, [name]: value }, confirm });
  if (schema.format === 'uri' && schema.pattern !== undefined) {
    const outside = OTHER_URLS.filter((url) => !new RegExp(schema.pattern as string, 'u').test(url));
    if (outside.length > 0) options.push(fc.constantFrom(...outside).map((url) => at(url, `${name} ${url}`)));
  }
  if (schema.type === 'string' && schema.enum) {
    const outside = ['yes', 'no', '2', 'enabled', 'null'].filter((value) => !schema.enum?.includes(value));
    options.push(fc.constantFrom(...outside).map((value) => at(value, `${name} ${JSON.stringify(value)}`)));
  }
  const list = schema.type === 'array' ? schema : schema.anyOf?.find((each) => each.type === 'array');
  const known = (list?.items?.enum ?? []).map(String);
  if (list && known.length > 0) {
    const unknown = UNKNOWN_ITEMS.filter((item) => !known.includes(item));
    options.push(fc.constantFrom(...unknown).map((item) => at([known[0], item], `${name} with ${item}`)));
    // A form sends no field for an empty list: absent, not empty.
    if ((list.minItems ?? 0) > 0 && !form) options.push(fc.constant(at([], `${name} empty`)));
    if (list.maxItems !== undefined) {
      const many = Array.from({ length: list.maxItems + 1 }, (_, index) => known[index % known.length]);
      options.push(fc.constant(at(many, `${name} of ${many.length} items`)));
    }
    // A form's list in one field: the document cannot say which strings name patterns.
    if (schema.anyOf?.some((each) => each.type === 'string')) {
      options.push(
        fc
          .constantFrom(...unknown.map((item) => `${known[0]},${item}`), ',', ' , ')
          .map((value) => at(value, `${name} ${JSON.stringify(value)}`, false)),
      );
    }
  }
  return options;
}

/** A field that takes a list (a JSON array, or in a form repeated). */
const takesList = (property: Schema) => {
  const schema = resolveRef<Schema>(property).value;
  return schema.type === 'array' || Boolean(schema.anyOf?.some((each) => each.type === 'array'));
};

/** Invalid JSON bodies, each a valid one with one thing wrong; `confirm`: ajv must refuse it too. */
export function jsonMutations(
  body: Record<string, unknown>,
  schema: Schema,
  readOnly: readonly string[],
): fc.Arbitrary<Mutation> {
  const properties = Object.entries(schema.properties ?? {});
  const options: fc.Arbitrary<Mutation>[] = [
    fc
      .constantFrom('colour', 'Name', 'owner', 'indexPage', '__proto__', 'constructor', 'status')
      .filter((key) => !(key in (schema.properties ?? {})))
      .map((key) => ({ note: `unknown field ${key}`, body: { ...body, [key]: 1 }, confirm: true })),
    fc.tuple(fc.constantFrom(...properties), fc.nat()).map(([[name, property], index]) => {
      const values = wrongValues(property);
      const value = values[index % values.length];
      return { note: `${name} as ${JSON.stringify(value)}`, body: { ...body, [name]: value }, confirm: true };
    }),
  ];
  if (readOnly.length > 0) {
    options.push(
      fc
        .constantFrom(...readOnly)
        .map((key) => ({ note: `read-only ${key}`, body: { ...body, [key]: 'x' }, confirm: true })),
    );
  }
  const names = properties.filter(([name]) => name === 'name');
  if (names.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...FORBIDDEN_IN_NAMES), fc.constantFrom('start', 'middle', 'end'))
        .map(([character, at]) => {
          const name = String(body.name ?? 'Team');
          const value =
            at === 'start' ? `${character}${name}` : at === 'end' ? `${name}${character}` : `a${character}b.com`;
          const hex = character.codePointAt(0)?.toString(16).toUpperCase();
          return { note: `name with U+${hex}`, body: { ...body, name: value }, confirm: true };
        }),
      fc.constant({ note: 'name with a lone surrogate', body: { ...body, name: 'a\ud800b.com' }, confirm: false }),
      fc
        .constantFrom('', '   ')
        .map((name) => ({ note: `blank name ${JSON.stringify(name)}`, body: { ...body, name }, confirm: true })),
    );
  }
  for (const [name, property] of properties) {
    const value = tooLong(name, property);
    if (value !== undefined) {
      const confirm = lengthRefused(property, value);
      options.push(fc.constant({ note: `${name} one too long`, body: { ...body, [name]: value }, confirm }));
    }
    options.push(...valueMutations(body, name, property, false));
  }
  for (const name of schema.required ?? []) {
    const { [name]: _removed, ...rest } = body;
    options.push(fc.constant({ note: `no ${name}`, body: rest, confirm: true }));
  }
  return fc.oneof(...options);
}

/** Invalid form bodies: a list for a field, a color that is not one, a name too long or with a forbidden character. */
export function formMutations(body: Record<string, unknown>, schema: Schema): fc.Arbitrary<Mutation> {
  const properties = Object.keys(schema.properties ?? {});
  const single = properties.filter((name) => !takesList(schema.properties?.[name] as Schema));
  const options: fc.Arbitrary<Mutation>[] = [
    fc.constantFrom(...single).map((name) => ({
      note: `${name} as a list`,
      body: { ...body, [name]: [String(body[name] ?? 'a'), 'b'] },
      confirm: false,
    })),
  ];
  if (properties.includes('color')) {
    options.push(
      fc.constantFrom('0', '7', 'blue', '2.5', '  ', '-1').map((color) => ({
        note: `color ${JSON.stringify(color)}`,
        body: { ...body, color },
        confirm: true,
      })),
    );
  }
  if (properties.includes('name')) {
    options.push(
      fc.constantFrom(...FORBIDDEN_IN_NAMES).map((character) => ({
        note: `name with U+${character.codePointAt(0)?.toString(16).toUpperCase()}`,
        body: { ...body, name: `a${character}b.com` },
        confirm: true,
      })),
    );
  }
  for (const name of properties) {
    const property = schema.properties?.[name] as Schema;
    const value = tooLong(name, property);
    if (value !== undefined) {
      const confirm = lengthRefused(property, value);
      options.push(fc.constant({ note: `${name} one too long`, body: { ...body, [name]: value }, confirm }));
    }
    options.push(...valueMutations(body, name, schema.properties?.[name] as Schema, true));
  }
  return fc.oneof(...options);
}
