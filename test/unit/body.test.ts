import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, parseBody, parseForm } from '#lib/http/body.ts';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '#lib/http/errors.ts';
import { encodingOf } from '#lib/schemas/fields.ts';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

function thrown(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('form bodies', () => {
  it('decodes fields, pluses and percent escapes', () => {
    // Act
    const fields = parseBody('name=Big+Team%20%C3%A9&color=3', false, FORM);
    // Assess
    expect({ ...fields }).toEqual({ name: 'Big Team é', color: '3' });
  });

  it('turns repeated and bracketed keys into lists', () => {
    // Act / Assess
    expect({ ...parseForm('name=a&name=b') }).toEqual({ name: ['a', 'b'] });
    expect({ ...parseForm('name[]=a') }).toEqual({ name: ['a'] });
    expect({ ...parseForm('name[x]=a&name[y]=b') }).toEqual({ name: ['a', 'b'] });
  });

  it('keeps what URLSearchParams would: empty pairs, keys without values, "=" inside values', () => {
    // Act
    const fields = parseForm('a=1&&flag&b=x%3Dy=z&c=%2B+%26');
    // Assess
    expect({ ...fields }).toEqual({ a: '1', flag: '', b: 'x=y=z', c: '+ &' });
  });

  it.each([
    ['a truncated escape', 'name=%E0%A4%A'],
    ['a stray percent sign', 'name=100%'],
    ['a bad escape in a key', '%zz=1'],
    ['invalid UTF-8', 'name=%FF'],
    ['an encoded lone surrogate', 'name=%ED%A0%80'],
  ])('answers 400 for %s instead of storing a replacement character', (_, body) => {
    // Act
    const error = thrown(() => parseBody(body, false, FORM));
    // Assess
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body()).toEqual({
      message: 'The request body is not valid form data.',
      status: 400,
    });
  });

  it('yields a record without a prototype, so keys like __proto__ are plain data', () => {
    // Act
    const fields = parseForm('__proto__=x&constructor=y');
    // Assess
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(Object.entries(fields)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each([`${FORM}; charset=UTF-8`, 'Application/X-WWW-Form-Urlencoded'])(
    'accepts the media type written as %s',
    (contentType) => {
      // Act / Assess
      expect({ ...parseBody('name=a', false, contentType) }).toEqual({ name: 'a' });
    },
  );
});

describe('JSON bodies', () => {
  it('parses an object', () => {
    // Act
    const fields = parseBody('{"name":"Team","color":3}', false, `${JSON_TYPE}; charset=utf-8`);
    // Assess
    expect({ ...fields }).toEqual({ name: 'Team', color: 3 });
  });

  it('does not let __proto__ reach the prototype', () => {
    // Act
    const fields = parseBody('{"__proto__":{"polluted":true}}', false, JSON_TYPE);
    // Assess
    expect(Object.getPrototypeOf(fields)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['malformed JSON', '{"name":', 'The request body is not valid JSON.'],
    ['an array', '[1,2]', 'The request body must be a JSON object.'],
    ['a string', '"name"', 'The request body must be a JSON object.'],
    ['null', 'null', 'The request body must be a JSON object.'],
    ['a number', '42', 'The request body must be a JSON object.'],
  ])('answers 400 for %s', (_, body, message) => {
    // Act
    const error = thrown(() => parseBody(body, false, JSON_TYPE));
    // Assess
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).body()).toEqual({ message, status: 400 });
  });
});

describe('bytes that are not UTF-8', () => {
  const base64 = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part)))).toString(
      'base64',
    );

  it.each([
    ['a lone continuation byte', [0x80]],
    ['a byte UTF-8 never uses', [0xff]],
    ['a truncated sequence', [0xe2, 0x82]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['an overlong encoding', [0xc0, 0xaf]],
  ])('answer 400, as JSON and as a form, for %s in a base64 body (how API Gateway passes it)', (_, bytes) => {
    // Act
    const errors = [
      thrown(() => parseBody(base64('{"name":"x', bytes, '"}'), true, JSON_TYPE)),
      thrown(() => parseBody(base64('name=x', bytes), true, FORM)),
    ];
    // Assess
    for (const error of errors) {
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).body()).toEqual({
        message: 'The request body is not valid UTF-8.',
        status: 400,
      });
    }
  });

  it('answer 400 as API Gateway passes them, decoded into text with U+FFFD in their place', () => {
    // Prepare: what API Gateway (and the local gateway) hand over: the bytes decoded, each bad one as U+FFFD
    const asText = (...parts: (string | number[])[]) => Buffer.from(base64(...parts), 'base64').toString('utf8');
    // Act
    const errors = [
      thrown(() => parseBody(asText('{"name":"x', [0xff], '"}'), false, JSON_TYPE)),
      thrown(() => parseBody(asText('name=x', [0xe2, 0x82]), false, FORM)),
    ];
    // Assess
    for (const error of errors) {
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).body()).toEqual({
        message: 'The request body is not valid UTF-8.',
        status: 400,
      });
    }
  });

  it('leave an escaped U+FFFD as data: only the raw character is what a decoder writes', () => {
    // Act / Assess
    expect({ ...parseBody('{"name":"\\uFFFD"}', false, JSON_TYPE) }).toEqual({ name: '\uFFFD' });
    expect({ ...parseBody('name=%EF%BF%BD', false, FORM) }).toEqual({ name: '\uFFFD' });
    expect({ ...parseBody(base64('{"name":"\uFFFD"}'), true, JSON_TYPE) }).toEqual({ name: '\uFFFD' });
  });

  it('of another media type are a 415, not a 400: the type is checked first', () => {
    // Act / Assess
    expect(thrown(() => parseBody(base64([0xff]), true, 'image/png'))).toBeInstanceOf(UnsupportedMediaTypeError);
  });
});

describe('a body that starts with a byte order mark', () => {
  it('is read past it, as JSON and as a form, also base64-encoded', () => {
    // Prepare
    const bom = '\uFEFF';
    const base64 = Buffer.from(`${bom}{"name":"Design"}`, 'utf8').toString('base64');
    // Act / Assess
    expect({ ...parseBody(`${bom}{"name":"Design","color":5}`, false, JSON_TYPE) }).toEqual({
      name: 'Design',
      color: 5,
    });
    expect({ ...parseBody(`${bom}name=Design&color=5`, false, FORM) }).toEqual({ name: 'Design', color: '5' });
    expect({ ...parseBody(base64, true, JSON_TYPE) }).toEqual({ name: 'Design' });
  });

  it('is read past it only at the start: one inside a value stays (and a name refuses it)', () => {
    // Act / Assess
    expect({ ...parseBody('{"name":"\uFEFFDesign"}', false, JSON_TYPE) }).toEqual({ name: '\uFEFFDesign' });
    expect(thrown(() => parseBody('\uFEFF\uFEFF{}', false, JSON_TYPE))).toBeInstanceOf(BadRequestError);
  });
});

describe('the encoding the schemas read a body by', () => {
  it('is form for a form body, JSON for a JSON body and for no body at all', () => {
    // Act / Assess
    expect(encodingOf(parseBody('color=3', false, FORM))).toBe('form');
    expect(encodingOf(parseForm(''))).toBe('form');
    expect(encodingOf(parseBody('{"color":3}', false, JSON_TYPE))).toBe('json');
    expect(encodingOf(parseBody(null, false, FORM))).toBe('json');
  });
});

describe('any body', () => {
  it('is empty when there is none, whatever the media type', () => {
    // Act / Assess
    expect({ ...parseBody(null, false, undefined) }).toEqual({});
    expect({ ...parseBody('', false, 'text/plain') }).toEqual({});
  });

  it.each([undefined, 'text/plain', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx'])(
    'answers 415 for media type %s',
    (contentType) => {
      // Act
      const error = thrown(() => parseBody('name=a', false, contentType));
      // Assess
      expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
      expect((error as UnsupportedMediaTypeError).status).toBe(415);
    },
  );

  it('accepts 64 KiB and answers 413 above, counting bytes not characters', () => {
    // Prepare
    const exactly = `name=${'a'.repeat(MAX_BODY_BYTES - 5)}`;
    const multibyte = `name=${'é'.repeat(MAX_BODY_BYTES / 2)}`;
    // Act
    const error = thrown(() => parseBody(`${exactly}a`, false, FORM));
    // Assess
    expect(MAX_BODY_BYTES).toBe(64 * 1024);
    expect(parseBody(exactly, false, FORM).name).toHaveLength(MAX_BODY_BYTES - 5);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as PayloadTooLargeError).body()).toEqual({
      message: 'The request body must not be larger than 64 KiB.',
      status: 413,
    });
    expect(thrown(() => parseBody(multibyte, false, FORM))).toBeInstanceOf(PayloadTooLargeError);
  });

  it('checks the size before the media type, and decodes base64 bodies', () => {
    // Act / Assess
    expect(thrown(() => parseBody('a'.repeat(MAX_BODY_BYTES + 1), false, 'text/plain'))).toBeInstanceOf(
      PayloadTooLargeError,
    );
    expect({ ...parseBody(Buffer.from('name=b64').toString('base64'), true, FORM) }).toEqual({ name: 'b64' });
  });
});
