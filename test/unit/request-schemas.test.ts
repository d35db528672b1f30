/**
 * What the request schemas share: the encoding rule, the read-only fields, and the document's patterns, which
 * must state the code's own rules (checked over every code point, and property-based for domain names).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBody } from '#lib/http/body.ts';
import { domainNamePattern, pagePattern, spaceNamePattern } from '#lib/openapi/requests.ts';
import { DOMAIN_READ_ONLY, storeDomainBody, storeDomainSchema, updateDomainBody } from '#lib/schemas/domains.ts';
import { asForm, characterClass, encodingOf, NOT_IN_NAMES } from '#lib/schemas/fields.ts';
import { domainSchema, spaceSchema } from '#lib/schemas/responses.ts';
import { SPACE_READ_ONLY, storeSpaceBody, storeSpaceSchema, updateSpaceBody } from '#lib/schemas/spaces.ts';
import { errorsOf } from '#test/support/fixtures.ts';

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
  it('forbids in names exactly the characters the code refuses (every code point)', () => {
    // Prepare
    const pattern = new RegExp(spaceNamePattern(), 'u');
    const mismatches: string[] = [];
    // Act
    for (const character of everyCharacter()) {
      const refused = NOT_IN_NAMES.test(character);
      if (pattern.test(`a${character}b`) === refused) mismatches.push(character.codePointAt(0)?.toString(16) ?? '');
    }
    // Assess
    expect(mismatches).toEqual([]);
  });

  it('refuses, in a space name, each character of the class the schema refuses, and only those', () => {
    // Prepare: every character of the class, and a sample of the others (a schema run per code point is slow).
    const refused = new RegExp(`[${characterClass(NOT_IN_NAMES)}]`, 'u');
    const sample = [...everyCharacter()].filter((character, index) => refused.test(character) || index % 97 === 0);
    // Act
    const disagreements = sample.filter(
      (character) => refused.test(character) === (errorsOf(storeSpaceSchema, { name: `a${character}b` }) === null),
    );
    // Assess
    expect(sample.length).toBeGreaterThan(11_000);
    expect(disagreements.map((character) => character.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it('states a space name as the code takes it: not blank, nothing to trim, at most 32 characters', () => {
    // Prepare
    const pattern = new RegExp(spaceNamePattern(), 'u');
    // Act / Assess
    for (const name of ['Marketing', 'a', 'Big Team', '🚀', 'x'.repeat(32)]) {
      expect(pattern.test(name), name).toBe(true);
      expect(errorsOf(storeSpaceSchema, { name }), name).toBeNull();
    }
    for (const name of ['', ' ', ' a', 'a ', '\u00A0a', 'a\u200Bb', 'a\tb']) {
      expect(pattern.test(name), JSON.stringify(name)).toBe(false);
    }
  });

  it('accepts an ASCII domain name exactly when the code does (property-based)', () => {
    // Prepare: names of hostname characters, with the odd character that is not one (but spaces and slashes,
    // which the code tolerates around a name: see below).
    const pattern = new RegExp(domainNamePattern(), 'u');
    const character = fc.oneof(
      { weight: 20, arbitrary: fc.constantFrom(...'abcxyzABZ0189') },
      { weight: 3, arbitrary: fc.constant('.') },
      { weight: 3, arbitrary: fc.constant('-') },
      { weight: 1, arbitrary: fc.constantFrom('_', '*', ':', '@', '%') },
    );
    const label = (max: number) => fc.string({ unit: character, minLength: 0, maxLength: max });
    const name = fc.oneof(
      fc.array(label(8), { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
      fc.array(label(70), { minLength: 2, maxLength: 5 }).map((labels) => labels.join('.')),
    );
    // Act / Assess
    fc.assert(
      fc.property(name, (value) => {
        const documented = pattern.test(value) && value.length <= 239;
        expect(errorsOf(storeDomainSchema, { name: value }) === null, value).toBe(documented);
      }),
      { numRuns: 3000 },
    );
  });

  it('describes the canonical name: the code also tolerates spaces, a scheme and a trailing slash around it', () => {
    // Prepare
    const pattern = new RegExp(domainNamePattern(), 'u');
    // Act / Assess
    for (const name of [' example.com ', 'https://example.com/', 'HTTP://Example.com']) {
      expect(pattern.test(name), name).toBe(false);
      expect(errorsOf(storeDomainSchema, { name }), name).toBeNull();
    }
  });

  it('accepts the domain names the service takes, and refuses invisible ones', () => {
    // Prepare
    const pattern = new RegExp(domainNamePattern(), 'u');
    // Act / Assess
    for (const name of ['example.com', 'bücher.de', 'xn--bcher-kva.de', '例え.jp', `${'a'.repeat(63)}.com`]) {
      expect(pattern.test(name), name).toBe(true);
    }
    for (const name of ['exa\u200Bmple.com', 'example.123', 'localhost', '-a.com', `${'a'.repeat(64)}.com`]) {
      expect(pattern.test(name), name).toBe(false);
    }
  });

  it('states pages as http(s) URLs without spaces or control characters', () => {
    // Prepare
    const pattern = new RegExp(pagePattern(), 'u');
    // Act / Assess
    for (const url of ['https://www.example.com/welcome', 'HTTP://x.example', 'https://bücher.de/a?b#c']) {
      expect(pattern.test(url), url).toBe(true);
    }
    for (const url of [
      'ftp://x.example/',
      'https://',
      'example.com/page',
      'https://x.example/a b',
      'https://x/\u0000',
    ]) {
      expect(pattern.test(url), url).toBe(false);
    }
  });
});
