/**
 * The document accepts every domain name the service stores (issue 32): a client or proxy that validates
 * requests against it (Prism, a generated client) lets through `bücher.de`, `xn--bcher-kva.de` and the README's
 * own `https://Example.com/`, whether it asserts `format` (ajv with the document's formats, as the e2e checks
 * run) or takes it as an annotation (JSON Schema's default); and what the service refuses for a character or a
 * URL's syntax, a validator asserting `format` refuses too.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { storeDomainSchema } from '#lib/domains/api/fields.ts';
import { asForm } from '#lib/schemas/fields.ts';
import { errorsOf } from '#test/support/fixtures.ts';
import { document, schemaErrors } from '#test/support/openapi.ts';

const BODIES = ['/components/schemas/StoreDomainRequest', '/components/schemas/StoreDomainForm'];

/** The document read by a validator that knows no format (JSON Schema 2020-12: an annotation only). */
const annotationOnly = (() => {
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...document, $id: 'openapi.json' } as object);
  return (pointer: string, value: unknown) => ajv.validate({ $ref: `openapi.json#${pointer}` }, value);
})();

describe('the document against the names the service stores', () => {
  it.each([
    'example.com',
    'Example.COM',
    'https://Example.com/',
    'http://example.com',
    '  example.com  ',
    'bücher.de',
    'BÜCHER.de',
    'https://bücher.de/',
    'xn--bcher-kva.de',
    'XN--BCHER-KVA.DE',
    '例え.jp',
    'пример.рф',
    'shop\u3002example',
    'example.1a',
    'ex\u0430mple.com',
  ])('takes %s, as the service does', (name) => {
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name }), 'the service').toBeNull();
    for (const pointer of BODIES) {
      expect(schemaErrors(pointer, { name }), pointer).toBeNull();
      expect(annotationOnly(pointer, { name }), `${pointer}, format as an annotation`).toBe(true);
    }
  });

  it.each([
    'exa\u034Fmple.org',
    'exa\u00ADmple.org',
    'exa\u200Bmple.org',
    'a b.example',
    'example.com:443',
    'user@example.com',
    '*.example.com',
  ])('refuses %j, as the service does', (name) => {
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name }), 'the service').not.toBeNull();
    expect(errorsOf(storeDomainSchema, asForm({ name })), 'the service').not.toBeNull();
    // (A validator that takes `format` as an annotation lets any string through the `idn-hostname` form.)
    for (const pointer of BODIES) expect(schemaErrors(pointer, { name }), pointer).not.toBeNull();
  });
});
