import { describe, expect, it } from 'vitest';
import { storeDomainSchema, storeDomainSchemaFor, updateDomainSchema } from '#lib/domains/api/fields.ts';
import { normalizeDomainName, reservedNamesOf } from '#lib/domains/api/name.ts';
import { validate } from '#lib/http/validate.ts';
import { asForm } from '#lib/schemas/fields.ts';
import { errorsOf } from '#test/support/fixtures.ts';

/** A form body's fields, as `lib/http/body.ts` marks them; a plain object is a JSON body. */
const form = (fields: Record<string, unknown>) => asForm({ ...fields });
const INVISIBLE =
  'The name field must not contain invisible, bidirectional control, private-use or blank-looking characters.';

const INVALID_NAME = 'The name field must be a valid domain name.';
const label63 = 'a'.repeat(63);

describe('domain name normalisation', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['http://example.com', 'example.com'],
    ['https://example.com', 'example.com'],
    ['HTTPS://Example.com/', 'example.com'],
    ['example.com/', 'example.com'],
    ['sub.domain.example.co.uk', 'sub.domain.example.co.uk'],
    ['a-b.example', 'a-b.example'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['1.2.3.example', '1.2.3.example'],
    ['123.com', '123.com'],
    ['example.c0m', 'example.c0m'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['BÜCHER.de', 'xn--bcher-kva.de'],
    ['https://münchen.de/', 'xn--mnchen-3ya.de'],
    ['例え.jp', 'xn--r8jz45g.jp'],
    [`${label63}.com`, `${label63}.com`],
  ])('%s → %s', (input, expected) => {
    // Act / Assess
    expect(normalizeDomainName(input)).toBe(expected);
  });

  it.each([
    ['one label', 'localhost'],
    ['an IPv4 address', '192.168.0.1'],
    ['an IPv4 address with a scheme', 'http://10.0.0.1/'],
    ['an IPv6 address', '[::1]'],
    ['a bare IPv6 address', '::1'],
    ['a port', 'example.com:8080'],
    ['a path', 'example.com/page'],
    ['a scheme and a path', 'https://example.com/page'],
    ['a query', 'example.com?x=1'],
    ['a fragment', 'example.com#top'],
    ['user info', 'user@example.com'],
    ['a wildcard', '*.example.com'],
    ['a space', 'exa mple.com'],
    ['an underscore', 'ex_ample.com'],
    ['a leading hyphen', '-example.com'],
    ['a trailing hyphen', 'example-.com'],
    ['a hyphen ending the top label', 'example.com-'],
    ['an empty label', 'example..com'],
    ['a leading dot', '.example.com'],
    ['a trailing dot', 'example.com.'],
    ['a 64-character label', `${'a'.repeat(64)}.com`],
    ['a numeric top label', 'example.123'],
    ['a hexadecimal top label (an IPv4 number to the URL standard)', 'example.0x1f'],
    ['another scheme', 'ftp://example.com'],
    ['only a scheme', 'https://'],
    ['two trailing slashes', 'example.com//'],
    ['a backslash', 'example.com\\'],
    ['a percent sign', 'exa%41mple.com'],
    ['invalid punycode', 'xn--.com'],
    // Punycode labels are decoded and held to the rules of Unicode input (issue 32).
    ['punycode that does not decode', 'xn--zz.com'],
    ['punycode of a control character', 'xn--a.com'],
    ['punycode of ASCII only', 'xn--abc-.com'],
    ['punycode of a Braille blank', 'xn--ab-10y.com'],
    ['punycode of an upper-case letter (IDNA maps it: no A-label holds one)', 'xn--bcher-2pa.de'],
    ['punycode of a decomposed letter (not NFC)', 'xn--bucher-xyd.de'],
    ['punycode of a combining grapheme joiner', 'xn--example-pye.org'],
    ['a reserved label with hyphens in its third and fourth places', 'ab--cd.com'],
    ['a combining grapheme joiner, which IDNA drops', 'exa\u034Fmple.org'],
  ])('rejects %s', (_, input) => {
    // Act / Assess
    expect(normalizeDomainName(input)).toBeNull();
  });
});

describe('store domain schema', () => {
  it('normalises the name and turns missing, empty or null pages into null', () => {
    // Act / Assess
    expect(validate(storeDomainSchema, { name: 'https://Example.com/', index_page: '' })).toEqual({
      name: 'example.com',
      indexPage: null,
      notFoundPage: null,
    });
    expect(validate(storeDomainSchema, { name: 'example.com', index_page: null, not_found_page: ' ' })).toEqual({
      name: 'example.com',
      indexPage: null,
      notFoundPage: null,
    });
    expect(validate(storeDomainSchema, form({ name: 'example.com', index_page: '' }))).toEqual({
      name: 'example.com',
      indexPage: null,
      notFoundPage: null,
    });
  });

  it('keeps http and https pages, trimmed', () => {
    // Act
    const domain = validate(storeDomainSchema, {
      name: 'example.com',
      index_page: ' https://www.example.com/home ',
      not_found_page: 'http://other.example/404',
    });
    // Assess
    expect(domain).toEqual({
      name: 'example.com',
      indexPage: 'https://www.example.com/home',
      notFoundPage: 'http://other.example/404',
    });
  });

  it.each([
    ['missing', undefined, 'The name field is required.'],
    ['empty', '', 'The name field is required.'],
    ['blank', '  ', 'The name field is required.'],
    ['a list', ['a.com', 'b.com'], 'The name field must be a single value, not a list.'],
    ['a number', 12, 'The name field must be a string.'],
    ['null', null, 'The name field is required.'],
    ['invalid', 'not a domain', INVALID_NAME],
    ['an IP address', '127.0.0.1', INVALID_NAME],
    ['a lone surrogate', '\udc00.com', 'The name field must be valid Unicode text.'],
  ])('rejects a name that is %s', (_, name, message) => {
    // Act
    const errors = errorsOf(storeDomainSchema, name === undefined ? {} : { name });
    // Assess
    expect(errors).toEqual({ name: [message] });
  });

  it.each([
    ['a zero-width space', 'exa\u200Bmple.com'],
    ['a combining grapheme joiner', 'exa\u034Fmple.org'],
    ['a variation selector', 'exa\uFE0Fmple.org'],
    ['a Mongolian free variation selector', 'exa\u180Bmple.org'],
    ['a private-use character', 'exa\uE000mple.org'],
    ['a Braille blank', 'exa\u2800mple.org'],
    ['a soft hyphen', 'exa\u00ADmple.com'],
    ['a zero-width joiner', 'exa\u200Dmple.com'],
    ['a word joiner', 'example\u2060.com'],
    ['a byte order mark', '\uFEFFexample.com'],
    ['a right-to-left override', '\u202Eexample.com'],
    ['a right-to-left mark', 'example.com\u200F'],
  ])('rejects a name with %s (IDNA would drop or refuse it silently), as a form or as JSON', (_, name) => {
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name })).toEqual({ name: [INVISIBLE] });
    expect(errorsOf(storeDomainSchema, form({ name }))).toEqual({ name: [INVISIBLE] });
  });

  it.each([
    ['a number', 5, 'The index page field must be a string or null.'],
    ['a boolean', true, 'The index page field must be a string or null.'],
    ['an object', { url: 'https://x.example/' }, 'The index page field must be a string or null.'],
    ['a list', ['https://x.example/'], 'The index page field must be a single value, not a list.'],
  ])('rejects a JSON page that is %s', (_, index_page, message) => {
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name: 'example.com', index_page })).toEqual({ index_page: [message] });
  });

  it('refuses each field a JSON body does not list, and ignores them in a form', () => {
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name: 'example.com', status: 'active', indexPage: 'x' })).toEqual({
      status: ['The status field is not allowed.'],
      indexPage: ['The indexPage field is not allowed.'],
    });
    expect(validate(storeDomainSchema, form({ name: 'example.com', status: 'active' }))).toEqual({
      name: 'example.com',
      indexPage: null,
      notFoundPage: null,
    });
  });

  /** Three labels of 63 characters, a last one of `last`, and three dots: 192 + `last` characters. */
  const nameOf = (last: number) => [label63, label63, label63, 'a'.repeat(last)].join('.');

  it('accepts a 239-character name; refuses 240 to 253 (no room for the verification record) and 254', () => {
    // Prepare
    const [longest, tooLongToVerify, longestInDns, longer] = [nameOf(47), nameOf(48), nameOf(61), nameOf(62)];
    const verifyMessage =
      'The name field must not be greater than 239 characters in its ASCII (punycode) form, so that its ' +
      "verification record (_ds-challenge.<name>) fits in DNS's 253.";
    // Act / Assess
    expect([longest.length, tooLongToVerify.length, longestInDns.length, longer.length]).toEqual([239, 240, 253, 254]);
    expect(`_ds-challenge.${longest}`).toHaveLength(253);
    expect(validate(storeDomainSchema, { name: longest }).name).toBe(longest);
    expect(errorsOf(storeDomainSchema, { name: tooLongToVerify })).toEqual({ name: [verifyMessage] });
    expect(errorsOf(storeDomainSchema, { name: longestInDns })).toEqual({ name: [verifyMessage] });
    expect(errorsOf(storeDomainSchema, { name: longer })).toEqual({
      name: ['The name field must not be greater than 253 characters.'],
    });
  });

  it('accepts a 239-character name written with a scheme and a trailing slash', () => {
    // Prepare
    const longest = nameOf(47);
    // Act
    const domain = validate(storeDomainSchema, { name: `https://${longest}/` });
    // Assess
    expect(domain.name).toBe(longest);
  });

  it('also limits normalisation to 253 characters', () => {
    // Act / Assess
    expect(normalizeDomainName(nameOf(61))).toBe(nameOf(61));
    expect(normalizeDomainName(nameOf(62))).toBeNull();
  });

  it('rejects a Unicode name whose punycode form is longer than 253 characters, saying so', () => {
    // Prepare: 6 labels of 40 "ü" are 245 characters, and 269 in ASCII ("xn--" + 40 characters each)
    const name = Array.from({ length: 6 }, () => 'ü'.repeat(40)).join('.');
    // Act
    const errors = errorsOf(storeDomainSchema, { name });
    // Assess
    expect(name.length).toBeLessThanOrEqual(253);
    expect(errors).toEqual({
      name: ['The name field must not be greater than 253 characters in its ASCII (punycode) form.'],
    });
  });

  it.each([
    ['index_page', 'The index page field must be a valid http or https URL.'],
    ['not_found_page', 'The not found page field must be a valid http or https URL.'],
  ])('rejects a %s that is not an absolute http(s) URL', (field, message) => {
    for (const url of [
      'example.com/page',
      '/relative',
      'ftp://example.org/',
      'javascript:alert(1)',
      'https://',
      'mailto:a@b.c',
    ]) {
      // Act
      const errors = errorsOf(storeDomainSchema, { name: 'example.com', [field]: url });
      // Assess
      expect(errors, url).toEqual({ [field]: [message] });
    }
  });

  it.each([
    ['JSON', (fields: Record<string, unknown>) => fields],
    ['a form', form],
  ])('refuses in %s a page with spaces, control characters or credentials, saying which', (_, as) => {
    // Prepare
    const refused = [
      ['https://x.example/a b', 'The index page field must not contain spaces.'],
      ['https://x.example/a\u00A0b', 'The index page field must not contain spaces.'],
      ['https://x .example/', 'The index page field must be a valid http or https URL.'],
      ['not a url', 'The index page field must be a valid http or https URL.'],
      ['https://x.example/a\tb', 'The index page field must not contain control characters.'],
      ['https://x.example/\u0000', 'The index page field must not contain control characters.'],
      ['https://x.example/a\u007Fb', 'The index page field must not contain control characters.'],
      ['https://user:secret@x.example/', 'The index page field must not contain a user name or password.'],
      ['https://user@x.example/', 'The index page field must not contain a user name or password.'],
      ['https://x.example:99999/', 'The index page field must be a valid http or https URL.'],
      ['https://x.example/?q=a b', 'The index page field must not contain spaces.'],
      ['https://[::1/', 'The index page field must be a valid http or https URL.'],
    ] as const;
    // Act / Assess
    for (const [url, message] of refused) {
      expect(errorsOf(storeDomainSchema, as({ name: 'example.com', index_page: url })), url).toEqual({
        index_page: [message],
      });
    }
  });

  it.each([
    ['JSON', (fields: Record<string, unknown>) => fields],
    ['a form', form],
  ])('stores a page in %s as its WHATWG href: ASCII, percent-encoded, with a path', (_, as) => {
    // Prepare
    const pages = [
      ['https://x.example', 'https://x.example/'],
      ['HTTPS://X.Example:443/A?b#C', 'https://x.example/A?b#C'],
      ['https://bücher.example/straße?q=ä#ü', 'https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%A4#%C3%BC'],
      ['https://x.example/"><script>', 'https://x.example/%22%3E%3Cscript%3E'],
      ['https://x.example/a/../b/./c', 'https://x.example/b/c'],
      ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/'],
    ] as const;
    // Act / Assess
    for (const [url, href] of pages) {
      expect(validate(storeDomainSchema, as({ name: 'example.com', index_page: url })).indexPage, url).toBe(href);
      expect(validate(updateDomainSchema, as({ not_found_page: url })).notFoundPage, url).toBe(href);
    }
  });

  it('limits a page to 255 characters as sent, and passes on its href, however long (the edge limits both pages)', () => {
    // Prepare: 100 characters that encode to 6 each.
    const url = `https://pages.example/${'é'.repeat(100)}`;
    // Act
    const domain = validate(storeDomainSchema, { name: 'example.com', index_page: url });
    // Assess: the pages' bytes together are the data layer's check (lib/edge/rules/entry.ts, test/e2e/domains.test.ts).
    expect(url.length).toBeLessThan(255);
    expect(domain.indexPage).toBe(new URL(url).href);
    expect(domain.indexPage?.length).toBe(22 + 600);
  });

  it.each([
    ['index_page', 'index page'],
    ['not_found_page', 'not found page'],
  ])('limits %s to 255 characters', (field, label) => {
    // Prepare
    const base = 'https://pages.example/';
    const longest = base + 'p'.repeat(255 - base.length);
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name: 'example.com', [field]: longest })).toBeNull();
    expect(errorsOf(storeDomainSchema, { name: 'example.com', [field]: `${longest}p` })).toEqual({
      [field]: [`The ${label} field must not be greater than 255 characters.`],
    });
  });

  it('allows pages on a subdomain or another domain', () => {
    // Act
    const domain = validate(storeDomainSchema, {
      name: 'example.com',
      index_page: 'https://www.example.com/',
      not_found_page: 'https://example.org/',
    });
    // Assess
    expect(domain.indexPage).toBe('https://www.example.com/');
  });
});

describe("the stage's own host names", () => {
  /** The store as a stage whose edge host name is `edge.example.net` runs it. */
  const stage = storeDomainSchemaFor(reservedNamesOf('edge.example.net'));
  const reserved = (own: string) =>
    `The name field must not be ${own} or a name under it: that is this service's own host.`;

  it.each([
    ['the edge host name', 'edge.example.net', 'edge.example.net'],
    ['the edge host name, as pasted', 'HTTPS://Edge.Example.NET/', 'edge.example.net'],
    ['a name under the edge host name', 'shop.edge.example.net', 'edge.example.net'],
    ['the local edge', 'edge.localhost', 'localhost'],
    ['a name under localhost', 'api.localhost', 'localhost'],
    ['a CloudFront routing endpoint', 'd111111abcdef8.cloudfront.net', 'cloudfront.net'],
    ['the API host', 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com', 'amazonaws.com'],
  ])('refuses %s (422 on name)', (_, name, own) => {
    // Act / Assess
    expect(errorsOf(stage, { name })).toEqual({ name: [reserved(own)] });
    expect(errorsOf(stage, form({ name }))).toEqual({ name: [reserved(own)] });
  });

  it('takes a name that only ends like one of them, or holds one inside', () => {
    // Act / Assess
    for (const name of ['myedge.example.net', 'edge.example.network', 'edge.example.net.example', 'notlocalhost.dev']) {
      expect(errorsOf(stage, { name }), name).toBeNull();
    }
  });

  it("refuses the platform's names without a stage too", () => {
    // Act / Assess
    expect(errorsOf(storeDomainSchema, { name: 'edge.localhost' })).toEqual({ name: [reserved('localhost')] });
    expect(errorsOf(storeDomainSchema, { name: 'edge.example.net' })).toBeNull();
  });
});

describe('update domain schema', () => {
  it('keeps absent pages undefined and clears empty or null ones', () => {
    // Act / Assess
    expect(validate(updateDomainSchema, { index_page: '' })).toEqual({ indexPage: null, notFoundPage: undefined });
    expect(validate(updateDomainSchema, { not_found_page: null })).toEqual({
      indexPage: undefined,
      notFoundPage: null,
    });
    expect(validate(updateDomainSchema, form({ index_page: '' }))).toEqual({ indexPage: null });
  });

  it('ignores the name in a form, as it always did; in JSON the name cannot be changed', () => {
    // Act / Assess
    expect(validate(updateDomainSchema, form({ name: 'other.com', index_page: '' }))).toEqual({ indexPage: null });
    expect(errorsOf(updateDomainSchema, { name: 'other.com', index_page: '' })).toEqual({
      name: ['The name field cannot be changed.'],
    });
  });

  it('says every field of the domain that a client never writes cannot be changed, in JSON', () => {
    // Prepare: a domain as a show answers it, sent back.
    const shown = {
      id: 4,
      name: 'example.com',
      unicode_name: 'example.com',
      status: 'active',
      serving: 'active',
      records: [],
      verification: null,
      verified_at: null,
      last_checked_at: null,
      index_page: null,
      not_found_page: null,
      created_at: 'x',
      updated_at: 'y',
    };
    // Act
    const errors = errorsOf(updateDomainSchema, shown);
    // Assess
    expect(Object.keys(errors ?? {})).toEqual([
      'id',
      'name',
      'unicode_name',
      'status',
      'serving',
      'records',
      'verification',
      'verified_at',
      'last_checked_at',
      'created_at',
      'updated_at',
    ]);
    expect(errors?.unicode_name).toEqual(['The unicode name field cannot be changed.']);
    expect(errorsOf(updateDomainSchema, { index_pages: null })).toEqual({
      index_pages: ['The index_pages field is not allowed.'],
    });
  });

  it('rejects JSON pages of the wrong type', () => {
    // Act / Assess
    expect(errorsOf(updateDomainSchema, { not_found_page: 404 })).toEqual({
      not_found_page: ['The not found page field must be a string or null.'],
    });
  });

  it('accepts URLs and applies the URL rules', () => {
    // Act / Assess
    expect(validate(updateDomainSchema, { not_found_page: 'https://x.example/404' })).toEqual({
      indexPage: undefined,
      notFoundPage: 'https://x.example/404',
    });
    expect(errorsOf(updateDomainSchema, { index_page: 'nope' })).toEqual({
      index_page: ['The index page field must be a valid http or https URL.'],
    });
  });
});
