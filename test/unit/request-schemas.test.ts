/**
 * What the request schemas share: the encoding rule, the read-only fields, and the document's patterns, which
 * must state the code's own rules (checked over every code point, and property-based for domain names).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DOMAIN_READ_ONLY,
  storeDomainBody,
  storeDomainSchema,
  updateDomainBody,
  updateDomainSchema,
} from '#lib/domains/api/fields.ts';
import { domainNameFormsPattern, domainNamePattern } from '#lib/domains/api/name.ts';
import { pagePattern } from '#lib/domains/api/pages.ts';
import { domainSchema } from '#lib/domains/api/schema.ts';
import { parseBody } from '#lib/http/body.ts';
import { NOT_IN_NAMES, refusedCharacters } from '#lib/platform/characters.ts';
import { asForm, encodingOf } from '#lib/schemas/fields.ts';
import { characterClass } from '#lib/schemas/patterns.ts';
import {
  SPACE_READ_ONLY,
  spaceNamePattern,
  storeSpaceBody,
  storeSpaceSchema,
  updateSpaceBody,
  updateSpaceSchema,
} from '#lib/spaces/api/fields.ts';
import { spaceSchema } from '#lib/spaces/api/schema.ts';
import { errorsOf } from '#test/support/fixtures.ts';
import { refusedBeyondBmp } from '#test/support/fuzz/valid-values.ts';
import { document, resolveRef } from '#test/support/openapi.ts';
import { matching } from '#test/support/patterns.ts';

/** Every Unicode scalar value (code points but surrogates), as one-character strings. */
function* everyCharacter(): Generator<string> {
  for (let code = 0; code <= 0x10ffff; code++) if (code < 0xd800 || code > 0xdfff) yield String.fromCodePoint(code);
}

describe('the encoding of a body', () => {
  it('is form for the fields a form body parses to, and JSON for anything else', () => {
    // Act / Assess
    expect(encodingOf(parseBody('name=a', false, 'application/x-www-form-urlencoded'))).toBe('form');
    expect(encodingOf(parseBody('{"name":"a"}', false, 'application/json'))).toBe('json');
    expect(encodingOf(asForm({}))).toBe('form');
    expect(encodingOf({ name: 'a' })).toBe('json');
    expect(encodingOf(null)).toBe('json');
  });

  it('cannot be claimed by a JSON body: no key or value makes it a form', () => {
    // Prepare: what JSON can carry (strings for keys; no symbol, no prototype).
    const body = parseBody(
      '{"__proto__":{"form":true},"encoding":"form","constructor":"form"}',
      false,
      'application/json',
    );
    // Act / Assess
    expect(encodingOf(body)).toBe('json');
  });
});

describe('read-only fields', () => {
  it.each([
    ['space', spaceSchema.entries, SPACE_READ_ONLY, storeSpaceBody, updateSpaceBody],
    ['domain', domainSchema.entries, DOMAIN_READ_ONLY, storeDomainBody, updateDomainBody],
  ] as const)(
    "are the %s's fields that its update body does not take, and the update body says so",
    (_, entries, readOnly, store, update) => {
      // Act
      const written = Object.keys(update.fields);
      // Assess
      expect([...readOnly].sort()).toEqual(
        Object.keys(entries)
          .filter((field) => !written.includes(field))
          .sort(),
      );
      expect(update.readOnly).toEqual(readOnly);
      expect(store.readOnly).toEqual([]);
    },
  );
});

describe("the document's patterns state the code's rules", () => {
  it('forbids in names exactly the characters the code refuses in the BMP, and lets every other through (every code point)', () => {
    // Prepare: beyond the BMP no escape is read alike by JavaScript and Python: the description says what is refused.
    const pattern = new RegExp(spaceNamePattern(), 'u');
    const mismatches: string[] = [];
    // Act
    for (const character of everyCharacter()) {
      const refused = (character.codePointAt(0) as number) <= 0xffff && NOT_IN_NAMES.test(character);
      if (pattern.test(`a${character}b`) === refused) mismatches.push(character.codePointAt(0)?.toString(16) ?? '');
    }
    // Assess
    expect(mismatches).toEqual([]);
  });

  it('states the emoji presentation sequences a name may hold, as the code takes them', () => {
    // Prepare
    const pattern = new RegExp(spaceNamePattern(), 'u');
    // Act / Assess
    for (const name of ['Team \u2764\uFE0F', '\u263A\uFE0E', '1\uFE0F\u20E3', '\u{1F3F3}\uFE0F']) {
      expect(pattern.test(name), name).toBe(true);
      expect(refusedCharacters(name, 'name'), name).toBe(false);
    }
    for (const name of ['\uFE0F', 'Team\uFE0F', 'a\uFE0F\uFE0Fb', '1\uFE0F', 'Marketing\u034F']) {
      expect(pattern.test(name), name).toBe(false);
      expect(refusedCharacters(name, 'name'), name).toBe(true);
    }
  });

  it('refuses, in a space name, each character of the class the schema refuses, and only those', () => {
    // Prepare: every character of the class, and a sample of the others (a schema run per code point is slow).
    const refused = NOT_IN_NAMES;
    const sample = [...everyCharacter()].filter((character, index) => refused.test(character) || index % 97 === 0);
    // Act
    const disagreements = sample.filter(
      (character) => refused.test(character) === (errorsOf(storeSpaceSchema, { name: `a${character}b` }) === null),
    );
    // Assess
    expect(sample.length).toBeGreaterThan(11_000);
    expect(new RegExp(`^[${characterClass(NOT_IN_NAMES)}]$`, 'u').test('\u034F')).toBe(true);
    expect(disagreements.map((character) => character.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it('states a space name as the code takes it: not blank, spaces around it trimmed, at most 32 characters', () => {
    // Prepare
    const pattern = new RegExp(spaceNamePattern(), 'u');
    // Act / Assess
    for (const name of ['Marketing', 'a', 'Big Team', '🚀', 'x'.repeat(32), ' a', 'a ', '\u00A0a\u3000']) {
      expect(pattern.test(name), name).toBe(true);
      expect(errorsOf(storeSpaceSchema, { name }), name).toBeNull();
    }
    for (const name of ['', ' ', '\u00A0', 'a\u00A0b', 'a\u200Bb', 'a\tb', '\uFEFFa', 'a\u2028']) {
      expect(pattern.test(name), JSON.stringify(name)).toBe(false);
      expect(errorsOf(storeSpaceSchema, { name }), JSON.stringify(name)).not.toBeNull();
    }
  });

  it('accepts an ASCII domain name exactly when the code does, but for what it leaves to the description (property-based)', () => {
    // Prepare: names of hostname characters, with the odd character that is not one (but spaces and slashes,
    // which the code tolerates around a name: see below).
    const pattern = new RegExp(domainNamePattern(), 'u');
    const character = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...'abcnxyzABZ0189') },
      { weight: 3, arbitrary: fc.constant('.') },
      { weight: 3, arbitrary: fc.constant('-') },
      { weight: 1, arbitrary: fc.constantFrom('_', '*', ':', '@', '%') },
    );
    const label = (max: number) => fc.string({ unit: character, minLength: 0, maxLength: max });
    const name = fc.oneof(
      fc.array(label(8), { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
      fc.array(label(70), { minLength: 2, maxLength: 5 }).map((labels) => labels.join('.')),
    );
    // What the pattern leaves to the description: a label with hyphens in its third and fourth places (`xn--`
    // is punycode, which IDNA checks), a last label that starts with a digit but is no number.
    const described = (value: string) =>
      value.split('.').some((part) => part.slice(2, 4) === '--') || /^[0-9]/.test(value.split('.').at(-1) ?? '');
    // Act / Assess
    fc.assert(
      fc.property(name, (value) => {
        const documented = pattern.test(value) && value.length <= 239;
        const accepted = errorsOf(storeDomainSchema, { name: value }) === null;
        if (documented) expect(accepted, value).toBe(true);
        else if (!described(value)) expect(accepted, value).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes, by its forms pattern, what the code tolerates: spaces, a scheme and a trailing slash around a name', () => {
    // Prepare
    const stored = new RegExp(domainNamePattern(), 'u');
    const forms = new RegExp(domainNameFormsPattern(), 'u');
    // Act / Assess
    for (const name of [' example.com ', 'https://example.com/', 'HTTP://Example.com', 'https://Example.com/']) {
      expect(stored.test(name), name).toBe(false);
      expect(forms.test(name), name).toBe(true);
      expect(errorsOf(storeDomainSchema, { name }), name).toBeNull();
    }
  });

  it('states ASCII domain names; IDNs, punycode and a last label starting with a digit are taken as described', () => {
    // Prepare
    const pattern = new RegExp(domainNamePattern(), 'u');
    // Act / Assess
    for (const name of ['example.com', 'a-b.example', 'ab-cd.example', `${'a'.repeat(63)}.com`]) {
      expect(pattern.test(name), name).toBe(true);
    }
    const forms = new RegExp(domainNameFormsPattern(), 'u');
    for (const name of ['bücher.de', 'xn--bcher-kva.de', '例え.jp', 'example.1a', 'BÜCHER.de', 'shop\u3002example']) {
      expect(pattern.test(name), name).toBe(false);
      expect(forms.test(name), name).toBe(true);
      expect(errorsOf(storeDomainSchema, { name }), name).toBeNull();
    }
    // Refused by every form: what the service refuses because of a character (IDNA decides the rest).
    for (const name of ['exa\u034Fmple.org', 'exa\u00ADmple.org', 'a b.com', 'a/b.com', 'example.com:443']) {
      expect(forms.test(name), name).toBe(false);
      expect(errorsOf(storeDomainSchema, { name }), name).not.toBeNull();
    }
    for (const name of [
      'exa\u200Bmple.com',
      'example.123',
      'localhost',
      '-a.com',
      `${'a'.repeat(64)}.com`,
      'xn--a.com',
    ]) {
      expect(pattern.test(name), name).toBe(false);
    }
  });

  it('states pages in the form they are stored: ASCII http(s) URLs with a path, no space, no credentials', () => {
    // Prepare
    const pattern = new RegExp(pagePattern(), 'u');
    // Act / Assess
    for (const url of ['https://www.example.com/welcome', 'HTTP://x.example/', 'https://x.example:8080/a?b=%20#c']) {
      expect(pattern.test(url), url).toBe(true);
    }
    for (const url of [
      'ftp://x.example/',
      'https://',
      'example.com/page',
      'https://x.example/a b',
      'https://x/\u0000',
      'https://user:secret@x.example/',
      'https://x.example:65536/',
      'https://x.example/a"b',
    ]) {
      expect(pattern.test(url), url).toBe(false);
    }
    // Taken, and normalized into the stated form: no path, a Unicode host, an IP address.
    for (const url of ['https://x.example', 'https://bücher.de/a?b#c', 'http://127.0.0.1/']) {
      expect(pattern.test(url), url).toBe(false);
      expect(errorsOf(storeDomainSchema, { name: 'example.com', index_page: url }), url).toBeNull();
    }
  });
});

/** A JSON Schema of the document's request bodies, as far as they go. */
type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  const?: unknown;
  anyOf?: Schema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, Schema>;
  required?: string[];
};

/**
 * Values of a schema as a tool generates them: strings from the pattern itself (fast-check's stringMatching),
 * but for what the descriptions say: beyond the BMP, what names refuse; the domain name's loose forms pattern and
 * `idn-hostname`, whose names IDNA decides, by examples of the forms.
 */
function generated(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.$ref) return generated(resolveRef<Schema>(schema).value);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.pattern === domainNameFormsPattern()) return fc.constantFrom(' Bücher.example ', 'https://Example.com/');
  if (schema.format === 'idn-hostname') return fc.constantFrom('bücher.example', '例え.jp', 'пример.рф');
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(generated));
  if (schema.type === 'null') return fc.constant(null);
  if (schema.type === 'integer') return fc.integer({ min: schema.minimum ?? -100, max: schema.maximum ?? 100 });
  if (schema.type === 'string') {
    const base = schema.pattern ? matching(schema.pattern) : fc.string();
    return base.filter(
      (value) =>
        [...value].length >= (schema.minLength ?? 0) &&
        [...value].length <= (schema.maxLength ?? 1000) &&
        !refusedBeyondBmp(value),
    );
  }
  if (schema.type === 'object') {
    const properties = schema.properties ?? {};
    return fc.record(Object.fromEntries(Object.entries(properties).map(([key, each]) => [key, generated(each)])), {
      requiredKeys: schema.required ?? [],
    });
  }
  throw new Error(`No generator for ${JSON.stringify(schema).slice(0, 100)}`);
}

describe('values a tool generates from the document', () => {
  const schemas = (document as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
  const bodies = {
    StoreSpaceRequest: storeSpaceSchema,
    StoreSpaceForm: storeSpaceSchema,
    UpdateSpaceRequest: updateSpaceSchema,
    UpdateSpaceForm: updateSpaceSchema,
    StoreDomainRequest: storeDomainSchema,
    StoreDomainForm: storeDomainSchema,
    UpdateDomainRequest: updateDomainSchema,
    UpdateDomainForm: updateDomainSchema,
  } as const;

  it.each(Object.keys(bodies) as (keyof typeof bodies)[])(
    'pass the service’s own checks: %s (property-based, from its patterns)',
    (name) => {
      // Prepare: bodies generated from the committed document's schema, as Schemathesis or Hypothesis would.
      const schema = schemas[name] as Schema;
      const form = name.endsWith('Form');
      const body = generated(schema) as fc.Arbitrary<Record<string, unknown>>;
      // A page on the domain itself is refused by a rule the schema cannot state (its description says so).
      const loops = (value: Record<string, unknown>) =>
        typeof value.name === 'string' &&
        ['index_page', 'not_found_page'].some(
          (field) =>
            typeof value[field] === 'string' &&
            value[field] !== '' &&
            new URL(value[field] as string).hostname === (value.name as string).toLowerCase(),
        );
      // Act / Assess
      fc.assert(
        fc.property(
          body.filter((value) => !loops(value)),
          (value) => {
            const input = form ? asForm(Object.assign(Object.create(null), value)) : value;
            expect(errorsOf(bodies[name], input), JSON.stringify(value)).toBeNull();
          },
        ),
        { numRuns: 300 },
      );
    },
  );
});
