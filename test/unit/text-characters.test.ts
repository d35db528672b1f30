/** The character classes the text fields refuse, written as literals: the names' class is the union of the two. */
import { describe, expect, it } from 'vitest';
import { INVISIBLE_CHARACTERS, NOT_IN_NAMES, NOT_IN_TEXT } from '#lib/schemas/fields.ts';

describe('the characters a name may not hold', () => {
  it('are exactly the control characters and the invisible ones, at every code point', () => {
    // Act
    const differ: number[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      const union = NOT_IN_TEXT.test(character) || INVISIBLE_CHARACTERS.test(character);
      if (NOT_IN_NAMES.test(character) !== union) differ.push(code);
    }
    // Assess
    expect(differ).toEqual([]);
    expect(NOT_IN_NAMES.test('\u202E')).toBe(true);
    expect(NOT_IN_TEXT.test('\u202E')).toBe(false);
  });
});
