/**
 * Strings a document pattern matches, as a schema-driven tool generates them (fast-check's `stringMatching`).
 * fast-check draws a complemented class's characters from printable ASCII and keeps those outside it, so it never
 * ends drawing for `BEYOND_BMP` (`[^\u0000-\uFFFF]`, any character beyond the BMP: the one way JavaScript and
 * Python both write it); that class is given to it as the range it means with the `u` flag.
 */
import fc from 'fast-check';
import { BEYOND_BMP } from '#lib/schemas/patterns.ts';

/** U+10000 to U+10FFFF, written as the characters themselves (fast-check's parser reads no `\u{10FFFF}`). */
const ASTRAL = `[${String.fromCodePoint(0x10000)}-${String.fromCodePoint(0x10ffff)}]`;

export const matching = (pattern: string): fc.Arbitrary<string> =>
  fc.stringMatching(new RegExp(pattern.replaceAll(BEYOND_BMP, ASTRAL), 'u'));
