/** The characters names and descriptions may not hold (`lib/platform/characters.ts`), over every code point. */
import { describe, expect, it } from 'vitest';
import { NOT_IN_NAMES, NOT_IN_TEXT, refusedCharacters, TRIMMED } from '#lib/platform/characters.ts';

/** Every Unicode scalar value (code points but surrogates), as one-character strings. */
function* everyCharacter(): Generator<string> {
  for (let code = 0; code <= 0x10ffff; code++) if (code < 0xd800 || code > 0xdfff) yield String.fromCodePoint(code);
}

const hex = (character: string) => character.codePointAt(0)?.toString(16).toUpperCase();

describe('the characters a name may not hold', () => {
  it('are the control, format, separator, default-ignorable, private-use, blank-looking and replacement ones, at every code point', () => {
    // Prepare: the rule as the docs word it, class by class.
    const spaces = /^\p{Zs}$/u;
    const stated = (character: string) =>
      /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Default_Ignorable_Code_Point}]$/u.test(character) ||
      (spaces.test(character) && character !== ' ' && character !== '\u3000') ||
      character === '\u2800' ||
      // The replacement character: what bytes that were not UTF-8 became.
      character === '\uFFFD';
    // Act
    const differ = [...everyCharacter()].filter((character) => NOT_IN_NAMES.test(character) !== stated(character));
    // Assess
    expect(differ.map(hex)).toEqual([]);
  });

  it.each([
    ['U+034F combining grapheme joiner', 'Marketing\u034F'],
    ['U+FE0F alone', '\uFE0F'],
    ['U+FE0F after a letter', 'Team\uFE0F'],
    ['U+FE0F twice', '\u2764\uFE0F\uFE0F'],
    ['U+17B5 Khmer vowel inherent', 'a\u17B5b'],
    ['U+180B Mongolian variation selector', 'a\u180Bb'],
    ['U+FE00 variation selector-1', 'a\uFE00b'],
    ['U+E000 private use', 'a\uE000b'],
    ['U+F0000 private use, plane 15', 'a\u{F0000}b'],
    ['U+2800 Braille blank', '\u2800'],
    ['U+00A0 no-break space', 'Big\u00A0Team'],
    ['U+202F narrow no-break space', 'Big\u202FTeam'],
    ['U+202E right-to-left override', 'a\u202Eb'],
    ['U+3164 Hangul filler', '\u3164'],
    ['U+E0041 tag letter', 'a\u{E0041}'],
    ['U+E0100 variation selector-17', '\u8FBB\u{E0100}'],
    ['U+200D zero-width joiner between emoji', '\u{1F468}\u200D\u{1F469}'],
  ])('refuses %s in a name and a description', (_, value) => {
    // Act / Assess
    expect(refusedCharacters(value, 'name')).toBe(true);
    expect(refusedCharacters(value, 'hostname')).toBe(true);
  });

  it.each([
    ['an emoji with its emoji presentation selector', 'Team \u2764\uFE0F'],
    ['an emoji with its text presentation selector', '\u263A\uFE0E'],
    ['a keycap', '1\uFE0F\u20E3 first'],
    ['an emoji beyond the BMP with its selector', '\u{1F3F3}\uFE0F'],
    ['a plain and an ideographic space', 'Big Team\u3000東京'],
    ['text in any script', 'فريق Équipe 例え'],
  ])('takes %s in a name, but a hostname takes no selector', (_, value) => {
    // Act / Assess
    expect(refusedCharacters(value, 'name')).toBe(false);
    expect(refusedCharacters(value, 'hostname')).toBe(/[\uFE0E\uFE0F]/.test(value));
  });

  it('refuses control characters in any text, and only those', () => {
    // Act / Assess
    expect(refusedCharacters('a\tb', 'text')).toBe(true);
    expect(refusedCharacters('a\u202Eb', 'text')).toBe(false);
    expect(NOT_IN_TEXT.test('\u0085')).toBe(true);
  });

  it('trims around a name the white space it may hold: exactly the plain and the ideographic space', () => {
    // Act
    const differ = [...everyCharacter()].filter(
      (character) => TRIMMED.test(character) !== (/^\s$/u.test(character) && !NOT_IN_NAMES.test(character)),
    );
    // Assess
    expect(differ.map(hex)).toEqual([]);
  });
});
