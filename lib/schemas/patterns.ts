/**
 * What the document's field descriptions share: the `pattern`s' building blocks (the classes of characters a
 * name may not hold, a DNS label, a port, the URL standard's characters) and common sentences. Each field's own
 * pattern and description stand beside its valibot definition, in its kind's API files (`lib/<kind>/api/`).
 */

import { NOT_IN_NAMES, TRIMMED } from '#lib/platform/characters.ts';
import type { Mode } from './request.ts';

/**
 * The patterns are in JSON Schema's interoperable subset of regular expressions: characters, character
 * classes and their complements, ranges, quantifiers, groups, alternation and the anchors; no lookaround, no
 * `\d`, `\s` or `\w` (whose meanings differ between engines), no `(?:`, no `\u{…}` or `\p{…}`. Every
 * character but printable ASCII is written as a `\uXXXX` escape, which JavaScript (with the `u` flag, as JSON
 * Schema reads patterns, and without it, as generated validators such as zod's do) and Python's `re` read
 * alike: no raw control, format or separator character ever reaches a document, a header or generated code.
 * So ECMA-262, Python's `re` and other engines compile them and agree on what they match
 * (`test/contract/patterns.test.ts` compiles each one in JavaScript, both ways, and in Python, and compares
 * them); what a pattern of the subset cannot state is said in the description.
 *
 * A character beyond the BMP has no escape the three read alike (`\u{…}` is JavaScript's with the flag,
 * `\U…` Python's, and without the flag JavaScript sees two surrogates), so the classes below list the BMP:
 * a pattern lets every character beyond it through, and the description says which of those are refused
 * (private-use planes 15 and 16, tag characters, the few format characters there).
 */

/** Characters a regular expression's class reads as syntax: written escaped (`\]`). */
const CLASS_SYNTAX = /* @__PURE__ */ new Set(['\\', ']', '[', '^', '-']);

/** A character in a class: printable ASCII as itself (syntax escaped), any other as `\uXXXX`. */
const inClass = (code: number) => {
  if (code > 0x20 && code < 0x7f) {
    const character = String.fromCharCode(code);
    return CLASS_SYNTAX.has(character) ? `\\${character}` : character;
  }
  return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
};

/**
 * A character class (`[...]`, without the brackets) of the BMP's characters a rule matches, as ranges
 * (`a-z`, `\u2000-\u200A`): the document's patterns state the code's own rule, in the running Unicode version.
 * Surrogates are no characters: left out (so that, read without the `u` flag, a class complemented lets the
 * surrogate pair of a character beyond the BMP through, as with it).
 */
export function characterClass(rule: RegExp): string {
  const ranges: string[] = [];
  let start = -1;
  for (let code = 0; code <= 0x10000; code++) {
    const matches = code < 0x10000 && (code < 0xd800 || code > 0xdfff) && rule.test(String.fromCharCode(code));
    if (matches && start < 0) start = code;
    if (!matches && start >= 0) {
      ranges.push(start === code - 1 ? inClass(start) : `${inClass(start)}-${inClass(code - 1)}`);
      start = -1;
    }
  }
  return ranges.join('');
}

/**
 * Any one character beyond the BMP, as JavaScript with the `u` flag and Python read it (without the flag,
 * JavaScript matches nothing with it).
 */
export const BEYOND_BMP = '[^\\u0000-\\uFFFF]';

let classes: { refused: string; trimmed: string; spaces: string; pictographic: string } | undefined;
/**
 * The classes names are written with (computed once: ~100 ms): the characters a name may not hold
 * (`NOT_IN_NAMES`), those the service trims around it that it may hold inside (`TRIMMED`), the spaces it trims
 * around it (`\p{Zs}`), and the emoji that may take a presentation selector (`\p{Extended_Pictographic}`).
 */
export const nameClasses = () => {
  classes ??= {
    refused: characterClass(NOT_IN_NAMES),
    trimmed: characterClass(TRIMMED),
    spaces: characterClass(/\p{Zs}/u),
    pictographic: characterClass(/\p{Extended_Pictographic}/u),
  };
  return classes;
};

/**
 * What a name is made of, as a pattern states `refusedCharacters(value, 'name')`: characters it may hold, and
 * the emoji presentation sequences (an emoji and U+FE0E or U+FE0F; a keycap). `edge`: not one the service
 * trims either, to start or end a name with. Each is an alternation: put it in a group.
 */
export function nameUnit({ edge = false } = {}): string {
  const { refused, trimmed, pictographic } = nameClasses();
  const emoji = `([${pictographic}]|${BEYOND_BMP})[\\uFE0E\\uFE0F]|[#*0-9]\\uFE0F\\u20E3`;
  return `[^${refused}${edge ? trimmed : ''}]|${emoji}`;
}

/** ASCII letters and digits, and with the hyphen: what a DNS label is made of. */
export const ALNUM = 'A-Za-z0-9';
const LDH = 'A-Za-z0-9\\-';

/**
 * A DNS label of 1 to 63 letters, digits and hyphens, no hyphen at either end, and none in both its third and
 * fourth places (`xn--…` is punycode, which IDNA checks: such a label is accepted, not stated). `first` is what
 * may start it.
 */
export function labelPattern(first: string): string {
  const a = `[${ALNUM}]`;
  const ldh = `[${LDH}]`;
  return (
    `[${first}](` +
    `${ldh}?${a}` + // 2 or 3 characters
    `|${ldh}(${a}${ldh}{0,59}${a}|-${a}(${ldh}{0,58}${a})?)` + // 4 to 63: the third a letter or digit, or a hyphen then one
    ')?'
  );
}

/** A port, 0 to 65535. */
export const PORT = '([0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';

/** What the URL standard leaves as it is in a path, a query and a fragment (ASCII; no space, no quote, no `<>`). */
export const URL_TEXT = {
  path: "!$%&'()*+,./0-9:;=@A-Z\\[\\]\\^_a-z|~\\-",
  query: '!$%&()*+,./0-9:;=?@A-Z\\[\\\\\\]\\^_`a-z{|}~\\-',
  fragment: "!#$%&'()*+,./0-9:;=?@A-Z\\[\\\\\\]\\^_a-z{|}~\\-",
};

/** What an update's absent field means, said after a field's description. */
export const unchanged = (mode: Mode) => (mode === 'update' ? ' Absent: unchanged.' : '');

/** The characters names may not hold, as the field descriptions say it (`lib/platform/characters.ts`). */
export const NAME_CHARACTERS =
  'No control characters, and nothing invisible, blank-looking or that reorders the text: no format character ' +
  '(`\\p{Cf}`: zero-width space and joiners, so no emoji joined by U+200D either, word joiner, byte order mark, ' +
  'soft hyphen, bidi embeddings, overrides, isolates and marks, tag characters), no line or paragraph separator, ' +
  'no default-ignorable code point (`\\p{Default_Ignorable_Code_Point}`: the combining grapheme joiner U+034F, ' +
  'variation selectors, Hangul fillers…) but for the presentation selector of an emoji (U+FE0F or U+FE0E right ' +
  'after it, as in U+2764 U+FE0F, or in a keycap), no private-use character (`\\p{Co}`), no Braille blank ' +
  'U+2800, and no space inside but U+0020 and U+3000 (spaces around it are trimmed). The pattern lists them in the BMP; beyond it, the service also ' +
  'refuses private-use, tag and format characters. Not a lone surrogate either (no Unicode text).';
