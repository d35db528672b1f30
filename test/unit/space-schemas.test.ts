import { describe, expect, it } from 'vitest';
import { ValidationError } from '#lib/http/errors.ts';
import { validate } from '#lib/http/validate.ts';
import { asForm } from '#lib/schemas/fields.ts';
import { storeSpaceSchema, updateSpaceSchema } from '#lib/spaces/api/fields.ts';
import { errorsOf } from '#test/support/fixtures.ts';

/** A form body's fields, as `lib/http/body.ts` marks them; a plain object is a JSON body. */
const form = (fields: Record<string, unknown>) => asForm({ ...fields });

const INVISIBLE =
  'The name field must not contain invisible, bidirectional control, private-use or blank-looking characters.';

describe('store space schema', () => {
  it('trims the name and defaults the color to 1, in either encoding', () => {
    // Act / Assess
    expect(validate(storeSpaceSchema, { name: '  Marketing  ' })).toEqual({ name: 'Marketing', color: 1 });
    expect(validate(storeSpaceSchema, form({ name: '  Marketing  ' }))).toEqual({ name: 'Marketing', color: 1 });
  });

  it.each([
    ['digits', '3', 3],
    ['padded digits', ' 2 ', 2],
    ['a leading zero', '06', 6],
    ['lowest', '1', 1],
    ['empty (a blank form field)', '', 1],
  ])('accepts a form color as %s', (_, color, expected) => {
    // Act
    const space = validate(storeSpaceSchema, form({ name: 'Team', color }));
    // Assess
    expect(space.color).toBe(expected);
  });

  it.each([1, 6, 3.0])('accepts a JSON color as the number %j', (color) => {
    // Act / Assess
    expect(validate(storeSpaceSchema, { name: 'Team', color }).color).toBe(color);
  });

  it.each([
    ['0', 'The color field must be between 1 and 6.'],
    ['7', 'The color field must be between 1 and 6.'],
    ['-1', 'The color field must be between 1 and 6.'],
    ['2.5', 'The color field must be an integer.'],
    ['abc', 'The color field must be an integer.'],
    ['3abc', 'The color field must be an integer.'],
    ['1e0', 'The color field must be an integer.'],
    ['  ', 'The color field must be an integer.'],
    [['1', '2'], 'The color field must be a single value, not a list.'],
  ])('rejects the form color %j', (color, message) => {
    // Act
    const errors = errorsOf(storeSpaceSchema, form({ name: 'Team', color }));
    // Assess
    expect(errors).toEqual({ color: [message] });
  });

  it.each([
    ['digits in a string', '3', 'The color field must be an integer.'],
    ['null', null, 'The color field must be an integer.'],
    ['an empty string', '', 'The color field must be an integer.'],
    ['a boolean', true, 'The color field must be an integer.'],
    ['an object', { value: 3 }, 'The color field must be an integer.'],
    ['a fraction', 2.5, 'The color field must be an integer.'],
    ['0', 0, 'The color field must be between 1 and 6.'],
    ['7', 7, 'The color field must be between 1 and 6.'],
    ['a list', [1], 'The color field must be a single value, not a list.'],
  ])('rejects a JSON color that is %s', (_, color, message) => {
    // Act
    const errors = errorsOf(storeSpaceSchema, { name: 'Team', color });
    // Assess
    expect(errors).toEqual({ color: [message] });
  });

  it.each([
    ['missing', undefined, 'The name field is required.'],
    ['empty', '', 'The name field is required.'],
    ['blank', '   ', 'The name field is required.'],
    ['33 characters', 'x'.repeat(33), 'The name field must not be greater than 32 characters.'],
    ['a list', ['a', 'b'], 'The name field must be a single value, not a list.'],
    ['a control character', 'Tab\there', 'The name field must not contain control characters.'],
    ['a lone surrogate', 'a\ud800b', 'The name field must be valid Unicode text.'],
  ])('rejects a name that is %s, as a form or as JSON', (_, name, message) => {
    // Prepare
    const fields = name === undefined ? {} : { name };
    // Act / Assess
    expect(errorsOf(storeSpaceSchema, form(fields))).toEqual({ name: [message] });
    expect(errorsOf(storeSpaceSchema, fields)).toEqual({ name: [message] });
  });

  it.each([
    ['a number', 42],
    ['a boolean', false],
    ['an object', { a: 1 }],
  ])('rejects a JSON name that is %s', (_, name) => {
    // Act / Assess
    expect(errorsOf(storeSpaceSchema, { name })).toEqual({ name: ['The name field must be a string.'] });
  });

  it('rejects a JSON name that is null as missing', () => {
    // Act / Assess
    expect(errorsOf(storeSpaceSchema, { name: null })).toEqual({ name: ['The name field is required.'] });
  });

  it.each([
    ['a zero-width space', 'Mar\u200Bketing'],
    ['a zero-width non-joiner', 'Mar\u200Cketing'],
    ['a zero-width joiner (an emoji sequence)', '👨\u200D👩\u200D👧'],
    ['a word joiner', 'Mar\u2060keting'],
    ['a byte order mark', '\uFEFFMarketing'],
    ['a soft hyphen', 'Mar\u00ADketing'],
    ['a right-to-left override', 'Invoice \u202Efdp.exe'],
    ['a left-to-right embedding', '\u202AMarketing'],
    ['a right-to-left isolate', '\u2067Marketing\u2069'],
    ['a first strong isolate', '\u2068Marketing'],
    ['a left-to-right mark', 'Marketing\u200E'],
    ['a right-to-left mark', '\u200FMarketing'],
    ['an Arabic letter mark', 'a\u061Cb'],
    ['a Mongolian vowel separator', 'a\u180Eb'],
    ['an invisible operator', 'a\u2062b'],
    ['a tag character', 'a\u{E0041}b'],
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    ['a Hangul filler', '\u3164'],
    ['a halfwidth Hangul filler', 'a\uFFA0'],
    // Default-ignorable, private-use and blank-looking characters (issue 32): each made two names look alike.
    ['a combining grapheme joiner', 'Marketing\u034F'],
    ['a variation selector alone', '\uFE0F'],
    ['a variation selector after a letter', 'Team\uFE0F'],
    ['a variation selector-1', 'a\uFE00b'],
    ['a Khmer inherent vowel', 'a\u17B5b'],
    ['a Mongolian free variation selector', 'a\u180Bb'],
    ['a private-use character', 'a\uE000b'],
    ['a private-use character beyond the BMP', 'a\u{F0000}b'],
    ['a Braille blank', '\u2800'],
    ['a no-break space inside', 'Big\u00A0Team'],
    ['an en space', 'Big\u2002Team'],
  ])('rejects a name with %s, as a form or as JSON', (_, name) => {
    // Act / Assess
    expect(errorsOf(storeSpaceSchema, form({ name }))).toEqual({ name: [INVISIBLE] });
    expect(errorsOf(storeSpaceSchema, { name })).toEqual({ name: [INVISIBLE] });
  });

  it.each([
    ['an emoji with its variation selector', '❤️ Team'],
    ['a flag', '🇫🇷 Équipe'],
    ['a text-style emoji', '\u263A\uFE0E Team'],
    ['a keycap', '1\uFE0F\u20E3 First'],
    ['an ideographic space inside', '東京\u3000支社'],
    ['combining marks', 'Cafe\u0301'],
    ['right-to-left letters', 'فريق'],
  ])('accepts a name with %s', (_, name) => {
    // Act / Assess
    expect(validate(storeSpaceSchema, { name }).name).toBe(name);
  });

  it('trims no-break spaces around a name, as spaces, though it refuses them inside', () => {
    // Act / Assess
    expect(validate(storeSpaceSchema, { name: '\u00A0Team\u202F ' }).name).toBe('Team');
    expect(errorsOf(storeSpaceSchema, { name: '\u00A0Big\u00A0Team' })).toEqual({ name: [INVISIBLE] });
  });

  it('counts characters, not UTF-16 units, against the 32 limit', () => {
    // Prepare: 32 emoji are 64 UTF-16 code units
    const name = '🚀'.repeat(32);
    // Act / Assess
    expect(validate(storeSpaceSchema, { name }).name).toBe(name);
    expect(errorsOf(storeSpaceSchema, { name: `${name}x` })).toEqual({
      name: ['The name field must not be greater than 32 characters.'],
    });
  });

  it('accepts 32 characters after trimming', () => {
    // Act
    const space = validate(storeSpaceSchema, { name: ` ${'y'.repeat(32)} ` });
    // Assess
    expect(space.name).toBe('y'.repeat(32));
  });

  it('reports every invalid field, each with one message, and the first as the message', () => {
    // Act
    let error: ValidationError | undefined;
    try {
      validate(storeSpaceSchema, form({ name: '', color: '9' }));
    } catch (caught) {
      error = caught as ValidationError;
    }
    // Assess
    expect(error).toBeInstanceOf(ValidationError);
    expect(error?.body()).toEqual({
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'], color: ['The color field must be between 1 and 6.'] },
      status: 422,
    });
  });

  it('ignores the fields a form does not list', () => {
    // Act
    const space = validate(storeSpaceSchema, form({ name: 'Ops', id: '99', owner: 'someone-else', colour: '4' }));
    // Assess
    expect(space).toEqual({ name: 'Ops', color: 1 });
  });

  it('refuses each field a JSON body does not list, naming it as it was sent, before the fields’ own errors', () => {
    // Act
    const errors = errorsOf(storeSpaceSchema, { colour: 4, id: 99, created_at: 'x' });
    // Assess
    expect(errors).toEqual({
      colour: ['The colour field is not allowed.'],
      id: ['The id field is not allowed.'],
      created_at: ['The created_at field is not allowed.'],
      name: ['The name field is required.'],
    });
    expect(Object.keys(errors ?? {})[0]).toBe('colour');
  });

  it('names a JSON field called __proto__ or constructor like any other, without touching a prototype', () => {
    // Prepare: as JSON.parse and lib/http/body.ts give it, an own key.
    const body = Object.assign(Object.create(null), JSON.parse('{"name":"A","__proto__":1,"constructor":2}'));
    // Act
    const errors = errorsOf(storeSpaceSchema, body);
    // Assess
    expect(Object.entries(errors ?? {})).toEqual([
      ['__proto__', ['The __proto__ field is not allowed.']],
      ['constructor', ['The constructor field is not allowed.']],
    ]);
    expect(({} as Record<string, unknown>).push).toBeUndefined();
  });
});

describe('update space schema', () => {
  it('leaves absent fields out, so they stay unchanged', () => {
    // Act / Assess
    expect(validate(updateSpaceSchema, {})).toEqual({});
    expect(validate(updateSpaceSchema, { color: 4 })).toEqual({ color: 4 });
    expect(validate(updateSpaceSchema, form({ color: '4' }))).toEqual({ color: 4 });
    expect(validate(updateSpaceSchema, { name: ' Sales ' })).toEqual({ name: 'Sales' });
  });

  it('treats a blank form color as absent, and refuses it in JSON', () => {
    // Act / Assess
    expect(validate(updateSpaceSchema, form({ color: '' })).color).toBeUndefined();
    expect(errorsOf(updateSpaceSchema, { color: '' })).toEqual({ color: ['The color field must be an integer.'] });
    expect(errorsOf(updateSpaceSchema, { color: null })).toEqual({ color: ['The color field must be an integer.'] });
  });

  it.each([
    ['empty', ''],
    ['blank', '  '],
  ])('rejects a present but %s name', (_, name) => {
    // Act / Assess
    expect(errorsOf(updateSpaceSchema, { name })).toEqual({ name: ['The name field is required.'] });
    expect(errorsOf(updateSpaceSchema, form({ name }))).toEqual({ name: ['The name field is required.'] });
  });

  it('rejects a JSON name that is null: it cannot be cleared', () => {
    // Act / Assess
    expect(errorsOf(updateSpaceSchema, { name: null })).toEqual({ name: ['The name field is required.'] });
  });

  it('applies the same name and color rules as store', () => {
    // Act / Assess
    expect(errorsOf(updateSpaceSchema, { name: 'z'.repeat(33) })).toEqual({
      name: ['The name field must not be greater than 32 characters.'],
    });
    expect(errorsOf(updateSpaceSchema, form({ color: '7' }))).toEqual({
      color: ['The color field must be between 1 and 6.'],
    });
    expect(errorsOf(updateSpaceSchema, form({ color: 'blue' }))).toEqual({
      color: ['The color field must be an integer.'],
    });
    expect(errorsOf(updateSpaceSchema, { name: 'a\u200Bb' })).toEqual({ name: [INVISIBLE] });
  });

  it('says the space’s own fields cannot be changed in JSON, and ignores them in a form', () => {
    // Prepare: what a client that sends back a space it was given sends.
    const shown = { id: 7, name: 'Ops', color: 2, created_at: 'x', updated_at: 'y' };
    // Act / Assess
    expect(errorsOf(updateSpaceSchema, shown)).toEqual({
      id: ['The id field cannot be changed.'],
      created_at: ['The created at field cannot be changed.'],
      updated_at: ['The updated at field cannot be changed.'],
    });
    expect(validate(updateSpaceSchema, form({ ...shown, id: '7', color: '2' }))).toEqual({ name: 'Ops', color: 2 });
    expect(errorsOf(updateSpaceSchema, { colour: 2 })).toEqual({ colour: ['The colour field is not allowed.'] });
  });
});
