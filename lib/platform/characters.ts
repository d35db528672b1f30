/**
 * The characters a name may not hold, defined once: the request schemas refuse them in every name and
 * description (`lib/schemas/fields.ts`), domain names and the hosts of page and webhook URLs refuse them before
 * IDNA or the URL parser could drop them (`lib/domains/api/name.ts`, `lib/platform/urls.ts`,
 * `lib/webhooks/rules/address.ts`), punycode labels are held to them once decoded (`lib/domains/rules/idn.ts`), and the document's
 * patterns are written from them (`lib/schemas/patterns.ts`). Pure, and at the bottom of lib/: anything may
 * import it.
 *
 * Literals, not built with `new RegExp`, so that a bundle that does not use one drops it.
 */

/** No control characters (`\p{Cc}`), in any text: they are invisible, break logs, and sort keys reserve them. */
export const NOT_IN_TEXT = /\p{Cc}/u;

/**
 * What no name or description may hold, because it shows as nothing, or as a space, or changes how the text
 * around it shows, so that two names that look alike could differ ("Marketing" and "Marketing" + U+034F), or a
 * name could show as another (U+202E writes what follows right to left):
 * - control characters (`\p{Cc}`);
 * - format characters (`\p{Cf}`: zero-width space and joiners, word joiner, byte order mark, soft hyphen, bidi
 *   embeddings, overrides, isolates and marks, tag characters, invisible operators);
 * - the line and paragraph separators (`\p{Zl}`, `\p{Zp}`);
 * - default-ignorable code points (`\p{Default_Ignorable_Code_Point}`, UAX #44: what a renderer shows as
 *   nothing: the combining grapheme joiner U+034F, variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF,
 *   the Mongolian free variation selectors U+180B–U+180F, the Khmer inherent vowels U+17B4–U+17B5, the Hangul
 *   fillers U+115F, U+1160, U+3164, U+FFA0, and the code points reserved as such);
 * - private-use characters (`\p{Co}`: U+E000–U+F8FF and planes 15 and 16), which show as whatever a font puts
 *   there, or as nothing;
 * - characters that show as a blank without being one: the Braille blank U+2800, and every space but the
 *   plain space U+0020 and the ideographic space U+3000 (U+00A0 no-break space, U+1680, U+2000–U+200A,
 *   U+202F, U+205F), which look like U+0020 beside it;
 * - the replacement character U+FFFD, which stands for bytes that were not UTF-8 (a body holding it raw is a
 *   400 already, `lib/http/body.ts`; in a name it is refused however it was sent).
 * One sequence of a default-ignorable character is allowed in names and descriptions (not in domain names,
 * which IDNA would drop it from): an emoji's presentation selector, see `EMOJI_PRESENTATION`.
 */
export const NOT_IN_NAMES =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Co}\u00A0\u1680\u2000-\u200A\u202F\u205F\u2800\uFFFD]/u;

/**
 * An emoji with its presentation selector: U+FE0F (emoji style) or U+FE0E (text style) right after an
 * `\p{Extended_Pictographic}` character (❤️, ☺︎), or U+FE0F in a keycap (`1️⃣`: a digit, `#` or `*`, U+FE0F,
 * U+20E3), as UTS #51 (Unicode emoji, §1.4.3 and ED-16) defines emoji presentation sequences. The selector shows
 * as the emoji's style, not as nothing; anywhere else it is one more invisible character.
 */
const EMOJI_PRESENTATION = /(\p{Extended_Pictographic})[\uFE0E\uFE0F]|([#*0-9])\uFE0F(?=\u20E3)/gu;

/** How strictly a value is held to `NOT_IN_NAMES`. */
export type CharacterRule = 'text' | 'name' | 'hostname';

/**
 * Whether a value holds a character its rule refuses: `text`, a control character; `name` (names and
 * descriptions), a character of `NOT_IN_NAMES` outside an emoji presentation sequence; `hostname`, one of
 * `NOT_IN_NAMES` anywhere (IDNA drops a variation selector rather than showing it).
 */
export function refusedCharacters(value: string, rule: CharacterRule): boolean {
  if (rule === 'text') return NOT_IN_TEXT.test(value);
  if (rule === 'hostname') return NOT_IN_NAMES.test(value);
  return NOT_IN_NAMES.test(value.replace(EMOJI_PRESENTATION, '$1$2'));
}

/**
 * The characters the service trims around a name (JavaScript's `trim`: white space and line terminators) that a
 * name may hold inside: the plain and the ideographic space. The other spaces (`\p{Zs}`) are trimmed around a
 * name too (`withoutSpacesAround`), and refused inside it (`NOT_IN_NAMES`).
 */
export const TRIMMED = /[\u0020\u3000]/u;

/** A value without the spaces (`\p{Zs}`) around it, which the service trims: what `refusedCharacters` judges. */
export const withoutSpacesAround = (value: string) => value.replace(/^\p{Zs}+|\p{Zs}+$/gu, '');
