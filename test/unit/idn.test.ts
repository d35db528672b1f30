import { domainToASCII } from 'node:url';
import { describe, expect, it } from 'vitest';
import { foldName } from '#lib/data/keys.ts';
import { decodeLabel, displayName, domainNameMatches, unicodeName } from '#lib/domains/rules/idn.ts';
import { resolvedScripts } from '#lib/domains/rules/idn-display.ts';
import { decodePunycode } from '#lib/domains/rules/punycode.ts';

describe('unicodeName', () => {
  it.each([
    ['xn--bcher-kva.de', 'bücher.de'],
    ['xn--mnchen-3ya.de', 'münchen.de'],
    ['xn--r8jz45g.jp', '例え.jp'],
    ['shop.xn--bcher-kva.de', 'shop.bücher.de'],
    ['xn--bcher-kva.xn--bcher-kva.de', 'bücher.bücher.de'],
    ['example.com', 'example.com'],
    ['a-b.example', 'a-b.example'],
  ])('%s → %s', (ascii, unicode) => {
    // Act / Assess
    expect(unicodeName(ascii)).toBe(unicode);
  });

  it('keeps the stored name when a punycode label does not decode, and says so', () => {
    // Act / Assess
    expect(displayName('xn--a.com')).toEqual({ unicodeName: 'xn--a.com', idnWarning: 'invalid_punycode' });
    expect(displayName('shop.xn--zz.com')).toEqual({ unicodeName: 'shop.xn--zz.com', idnWarning: 'invalid_punycode' });
  });
});

describe('punycode (RFC 3492)', () => {
  // RFC 3492 §7.1's sample strings.
  it.each([
    [
      'egbpdaj6bu4bxfgehfvwxn',
      '\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F',
    ],
    ['ihqwcrb4cv8a8dqg056pqjye', '他们为什么不说中文'],
    ['3B-ww4c5e180e575a65lsy2b', '3年B組金八先生'],
    ['Hello-Another-Way--fc4qua05auwb3674vfr0b', 'Hello-Another-Way-それぞれの場所'],
    ['-> $1.00 <--', '-> $1.00 <-'],
  ])('decodes %s', (encoded, decoded) => {
    // Act / Assess
    expect(decodePunycode(encoded)).toBe(decoded);
  });

  it.each(['zz', 'a-é', '99999999999', ''])('finds nothing in %j but what it encodes', (encoded) => {
    // Act / Assess: an unfinished number, a non-basic character before the delimiter, an overflow; nothing is nothing.
    expect(decodePunycode(encoded)).toBe(encoded === '' ? '' : null);
  });
});

describe('an A-label (xn--), decoded and held to the rules of Unicode input', () => {
  it.each([
    ['xn--bcher-kva', 'bücher'],
    ['xn--zca', 'ß'],
    ['xn--exmple-4nf', 'ex\u0430mple'],
  ])('%s is %s', (label, unicode) => {
    // Act / Assess
    expect(decodeLabel(label)).toBe(unicode);
  });

  it.each([
    ['xn--a', 'decodes to a control character'],
    ['xn--zz', 'does not decode'],
    ['xn--abc-', 'decodes to ASCII only'],
    ['xn--bcher-2pa', 'decodes to an upper-case letter, which IDNA maps'],
    ['xn--bucher-xyd', 'decodes to a letter that is not NFC'],
    ['xn--ab-10y', 'decodes to a Braille blank'],
    ['xn--example-pye', 'decodes to a combining grapheme joiner, which IDNA drops'],
  ])('%s is none: it %s', (label) => {
    // Act / Assess
    expect(decodeLabel(label)).toBeNull();
  });
});

describe('the resolved script set (UTS #39 §5.1, Table 1a)', () => {
  it.each([
    ['Circle', ['Latn']],
    ['СігсӀе', ['Cyrl']],
    ['Сirсlе', []],
    ['Circ1e', ['Latn']],
    ['C𝗂𝗋𝖼𝗅𝖾', ['Latn']],
    ['𝖢𝗂𝗋𝖼𝗅𝖾', 'all'],
    ['〆切', ['Hanb', 'Hani', 'Jpan', 'Kore']],
    ['ねガ', ['Jpan']],
  ])('of %s is %j', (text, expected) => {
    // Act
    const resolved = resolvedScripts([...text]);
    // Assess
    expect(resolved === 'all' ? 'all' : [...resolved].sort()).toEqual(expected);
  });
});

describe('how a name is shown: in Unicode where a browser shows it so (Chromium, UTS #39)', () => {
  /** The stored form of a Unicode name, as a store writes it. */
  const shown = (name: string) => displayName(domainToASCII(name));

  it.each([
    ['bücher.de'],
    ['färgbolaget.se'],
    ['пример.рф'],
    ['аррӏе.ru'],
    ['ελληνικά.gr'],
    ['例え.jp'],
    ['aアー.com'],
    ['한글漢字.kr'],
    ['公司.コム'],
    ['col·lecció.cat'],
    ['кот.com'],
  ])('shows %s in Unicode', (name) => {
    // Act / Assess
    expect(shown(name)).toEqual({ unicodeName: name, idnWarning: null });
  });

  it.each([
    // UTS #39 §5.1's mixed-script example, and the issue's: Latin with Cyrillic.
    ['ex\u0430mple.com', 'xn--exmple-4nf.com', 'mixed_scripts'],
    ['\u0441ir\u0441l\u0435.com', 'xn--irl-tdd0dc.com', 'mixed_scripts'],
    // Latin with Armenian (Chromium's example, U+0585).
    ['g\u0585\u0585gle.com', 'xn--ggle-vifa.com', 'mixed_scripts'],
    // Non-ASCII Latin may not mix with Japanese, though ASCII Latin may.
    ['ü\u30A2.com', 'xn--tda015v.com', 'mixed_scripts'],
    // UTS #39 §4's whole-script confusable (Cyrillic "scope") and Chromium's (Cyrillic "apple").
    ['\u0455\u0441\u043E\u0440\u0435.com', 'xn--e1argc3h.com', 'whole_script_confusable'],
    ['\u0430\u0440\u0440\u04CF\u0435.com', 'xn--80ak6aa92e.com', 'whole_script_confusable'],
    ['αικ.com', 'xn--mxaqd.com', 'whole_script_confusable'],
    // UTS #39 §5.3: Devanagari and European digits.
    ['\u09672.com', 'xn--2-izd.com', 'mixed_numbers'],
    // Outside the identifier profile: an emoji, math symbols, a middle dot outside l·l.
    ['💩.la', 'xn--ls8h.la', 'restricted_characters'],
    ['≆≎≈.de', 'xn--bcher.de', 'restricted_characters'],
    ['a·b.cat', 'xn--ab-0ea.cat', 'restricted_characters'],
  ])('shows %s in punycode (%s): %s', (name, ascii, warning) => {
    // Act
    const stored = domainToASCII(name);
    // Assess
    expect(stored).toBe(ascii);
    expect(shown(name)).toEqual({ unicodeName: ascii, idnWarning: warning });
  });

  it('decides label by label: only the unsafe label stays in punycode', () => {
    // Act / Assess
    expect(shown('bücher.ex\u0430mple.com')).toEqual({
      unicodeName: 'bücher.xn--exmple-4nf.com',
      idnWarning: 'mixed_scripts',
    });
  });
});

describe('domain search match', () => {
  it('finds a name shown in punycode by its Unicode form too', () => {
    // Act / Assess
    expect(domainNameMatches('xn--exmple-4nf.com', foldName('ex\u0430m'))).toBe(true);
  });

  /** As the list does: the search term is folded before it is matched. */
  const matches = (name: string, search: string) => domainNameMatches(name, foldName(search));

  it.each([
    'bücher',
    'BÜCHER',
    'Bücher.DE',
    'ücher',
    'her.de',
    'bcher-kva',
    'XN--BCHER',
    'xn--bcher-kva.de',
    '.de',
    'bu\u0308cher', // "ü" written as "u" and a combining diaeresis: NFC makes it "ü"
  ])('finds xn--bcher-kva.de by %s', (search) => {
    // Act / Assess
    expect(matches('xn--bcher-kva.de', search)).toBe(true);
  });

  it.each(['buecher', 'bücherei', 'kva.com', 'münchen', 'bücher.com'])(
    'does not find xn--bcher-kva.de by %s',
    (search) => {
      // Act / Assess
      expect(matches('xn--bcher-kva.de', search)).toBe(false);
    },
  );

  it('matches ASCII names as a substring, ignoring case', () => {
    // Act / Assess
    expect(matches('shop.example.com', 'EXAMPLE')).toBe(true);
    expect(matches('shop.example.com', 'p.ex')).toBe(true);
    expect(matches('shop.example.com', 'ü')).toBe(false);
  });
});
