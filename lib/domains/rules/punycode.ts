/**
 * Punycode decoding (RFC 3492 §6.2), to read what an `xn--` label stands for. Node's `domainToUnicode` cannot
 * say: given a label that does not decode (`xn--a`, `xn--zz`) it answers the label itself. Pure.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 0x80;
const MAX_INT = 0x7fffffff;

/** RFC 3492 §6.1. */
function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : delta >> 1;
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) >> 1) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

/** A basic code point's digit value: `a`–`z` (either case) 0–25, `0`–`9` 26–35; -1 for anything else. */
function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return -1;
}

/**
 * The Unicode string a punycode string (without its `xn--`) encodes, or null when it encodes none: a
 * non-basic character before the last delimiter, a character that is no digit, a number that ends early or
 * overflows, a code point beyond U+10FFFF or a surrogate.
 */
export function decodePunycode(input: string): string | null {
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let index = 0; index < Math.max(delimiter, 0); index++) {
    const code = input.charCodeAt(index);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let i = 0;
  let bias = INITIAL_BIAS;
  let position = delimiter > 0 ? delimiter + 1 : 0;
  while (position < input.length) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (position >= input.length) return null;
      const digit = digitOf(input.charCodeAt(position++));
      if (digit < 0 || digit > Math.floor((MAX_INT - i) / weight)) return null;
      i += digit * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < threshold) break;
      if (weight > Math.floor(MAX_INT / (BASE - threshold))) return null;
      weight *= BASE - threshold;
    }
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    if (Math.floor(i / length) > MAX_INT - n) return null;
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}
