import { describe, expect, it } from 'vitest';
import { foldName } from '#lib/data/keys.ts';
import { domainNameMatches, unicodeName } from '#lib/idn.ts';

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

  it('keeps the stored name when a punycode label does not decode', () => {
    // Act / Assess
    expect(unicodeName('xn--a.com')).toBe('xn--a.com');
  });
});

describe('domain search match', () => {
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
