/**
 * What the document's field descriptions share: the `pattern`s' building blocks (the classes of characters a
 * name may not hold, a DNS label, a port, the URL standard's characters) and common sentences. Each field's own
 * pattern and description stand beside its valibot definition, in its resource's files (`lib/resources/`).
 */

import { characterClass, NOT_IN_NAMES } from './fields.ts';
import type { Mode } from './request.ts';

/**
 * The patterns are in JSON Schema's interoperable subset of regular expressions: characters (written as
 * themselves), character classes and their complements, ranges, quantifiers, groups, alternation and the
 * anchors; no lookaround, no `\u{…}`, no `\d`, `\s` or `\w` (whose meanings differ between engines), no
 * `(?:`. So ECMA-262 (with the `u` flag, as JSON Schema reads patterns), Python's `re` and other engines
 * compile them and agree on what they match (`test/contract/patterns.test.ts` compiles each one in JavaScript
 * and in Python and compares them); what a pattern of the subset cannot state is said in the description.
 */
let classes: { names: string; blank: string } | undefined;
/** Characters names may not hold, and the blank ones trimmed around them, as class ranges (computed once: ~50 ms). */
export const forbidden = () => {
  classes ??= { names: characterClass(NOT_IN_NAMES), blank: characterClass(/\s/u) };
  return classes;
};

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

/** The characters names may not hold, as the field descriptions say it. */
export const NAME_CHARACTERS =
  'No control characters, and no invisible or bidirectional control characters: no format character ' +
  '(`\\p{Cf}`: zero-width space and joiners, word joiner, byte order mark, soft hyphen, bidi embeddings, ' +
  'overrides, isolates and marks, tag characters), no line or paragraph separator, no Hangul filler (so no ' +
  'emoji joined by U+200D either); the pattern lists them. Not a lone surrogate either (no Unicode text).';
