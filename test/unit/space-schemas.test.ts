import { describe, expect, it } from 'vitest';
import { ValidationError } from '#lib/errors.ts';
import { storeSpaceSchema, updateSpaceSchema } from '#lib/schemas/spaces.ts';
import { validate } from '#lib/schemas/validate.ts';
import { errorsOf } from '#test/support/fixtures.ts';

describe('store space schema', () => {
  it('trims the name and defaults the color to 1', () => {
    // Act
    const space = validate(storeSpaceSchema, { name: '  Marketing  ' });
    // Assess
    expect(space).toEqual({ name: 'Marketing', color: 1 });
  });

  it.each([
    ['form string', '3', 3],
    ['JSON number', 6, 6],
    ['padded form string', ' 2 ', 2],
    ['lowest', '1', 1],
    ['empty string (a blank form field)', '', 1],
    ['JSON null', null, 1],
  ])('accepts color as %s', (_, color, expected) => {
    // Act
    const space = validate(storeSpaceSchema, { name: 'Team', color });
    // Assess
    expect(space.color).toBe(expected);
  });

  it.each([
    ['0', 'The color field must be between 1 and 6.'],
    ['7', 'The color field must be between 1 and 6.'],
    ['-1', 'The color field must be between 1 and 6.'],
    [0, 'The color field must be between 1 and 6.'],
    ['2.5', 'The color field must be an integer.'],
    [2.5, 'The color field must be an integer.'],
    ['abc', 'The color field must be an integer.'],
    ['3abc', 'The color field must be an integer.'],
    ['1e0', 'The color field must be an integer.'],
    [true, 'The color field must be an integer.'],
    [['1', '2'], 'The color field must be a single value, not a list.'],
  ])('rejects color %j', (color, message) => {
    // Act
    const errors = errorsOf(storeSpaceSchema, { name: 'Team', color });
    // Assess
    expect(errors).toEqual({ color: [message] });
  });

  it.each([
    ['missing', undefined, 'The name field is required.'],
    ['null', null, 'The name field is required.'],
    ['empty', '', 'The name field is required.'],
    ['blank', '   ', 'The name field is required.'],
    ['33 characters', 'x'.repeat(33), 'The name field must not be greater than 32 characters.'],
    ['a list', ['a', 'b'], 'The name field must be a single value, not a list.'],
    ['a number', 42, 'The name field must be a string.'],
    ['an object', { a: 1 }, 'The name field must be a string.'],
    ['a control character', 'Tab\there', 'The name field must not contain control characters.'],
    ['a lone surrogate', 'a\ud800b', 'The name field must be valid Unicode text.'],
  ])('rejects a name that is %s', (_, name, message) => {
    // Act
    const errors = errorsOf(storeSpaceSchema, name === undefined ? {} : { name });
    // Assess
    expect(errors).toEqual({ name: [message] });
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
      validate(storeSpaceSchema, { name: '', color: '9' });
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

  it('ignores fields that are not listed', () => {
    // Act
    const space = validate(storeSpaceSchema, { name: 'Ops', id: 99, owner: 'someone-else', created_at: 'x' });
    // Assess
    expect(space).toEqual({ name: 'Ops', color: 1 });
  });
});

describe('update space schema', () => {
  it('leaves absent fields out, so they stay unchanged', () => {
    // Act / Assess
    expect(validate(updateSpaceSchema, {})).toEqual({});
    expect(validate(updateSpaceSchema, { color: '4' })).toEqual({ color: 4 });
    expect(validate(updateSpaceSchema, { name: ' Sales ' })).toEqual({ name: 'Sales' });
  });

  it('treats a blank color as absent', () => {
    // Act
    const changes = validate(updateSpaceSchema, { color: '' });
    // Assess
    expect(changes.color).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['blank', '  '],
  ])('rejects a present but %s name', (_, name) => {
    // Act
    const errors = errorsOf(updateSpaceSchema, { name });
    // Assess
    expect(errors).toEqual({ name: ['The name field is required.'] });
  });

  it('applies the same name and color rules as store', () => {
    // Act / Assess
    expect(errorsOf(updateSpaceSchema, { name: 'z'.repeat(33) })).toEqual({
      name: ['The name field must not be greater than 32 characters.'],
    });
    expect(errorsOf(updateSpaceSchema, { color: '7' })).toEqual({
      color: ['The color field must be between 1 and 6.'],
    });
    expect(errorsOf(updateSpaceSchema, { color: 'blue' })).toEqual({ color: ['The color field must be an integer.'] });
  });
});
