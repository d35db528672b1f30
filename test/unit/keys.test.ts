import { describe, expect, it } from 'vitest';
import {
  apiKeyKey,
  apiKeyPrefixKey,
  collectionPrefix,
  counterKey,
  domainNameGuardKey,
  foldName,
  ID_DIGITS,
  itemKey,
  MAX_ID,
  nameGuardPrefix,
  nameSortKey,
  ownerApiKeyKey,
  ownerPartition,
  sequenceKey,
  spaceNameGuardKey,
} from '#lib/data/keys.ts';
import { kinds } from '#lib/kinds.ts';

/** DynamoDB orders string sort keys by their UTF-8 bytes. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('table keys', () => {
  it('puts every item of an owner in that owner’s partition', () => {
    // Act
    const keys = [
      itemKey('alice', 'space', 1),
      itemKey('alice', 'domain', 1),
      sequenceKey('alice', 'space'),
      counterKey('alice', 'domain'),
      spaceNameGuardKey('alice', 'marketing'),
      ownerApiKeyKey('alice', 'dsk_abcdefgh'),
    ];
    // Assess
    for (const key of keys) expect(key.pk).toBe(ownerPartition('alice'));
    expect(new Set(keys.map((key) => key.sk)).size).toBe(keys.length);
    expect(ownerPartition('alice')).not.toBe(ownerPartition('bob'));
  });

  it('zero-pads ids so the sort key orders them numerically', () => {
    // Prepare
    const ids = [1, 2, 9, 10, 11, 100, 999, 1000, MAX_ID];
    // Act
    const sorted = ids.map((id) => itemKey('o', 'space', id).sk).sort(byteOrder);
    // Assess
    expect(sorted).toEqual(ids.map((id) => itemKey('o', 'space', id).sk));
    expect(itemKey('o', 'space', 7).sk).toBe(`SPACE#${'7'.padStart(ID_DIGITS, '0')}`);
    expect(MAX_ID).toBe(10 ** ID_DIGITS - 1);
  });

  it('gives each kind its own key prefix, shared by the table and the name index', () => {
    // Act / Assess
    expect(itemKey('o', 'space', 1).sk.startsWith(collectionPrefix('space'))).toBe(true);
    expect(itemKey('o', 'domain', 1).sk.startsWith(collectionPrefix('domain'))).toBe(true);
    expect(nameSortKey('space', 'a', 1).startsWith(collectionPrefix('space'))).toBe(true);
    expect(nameSortKey('domain', 'a', 1).startsWith(collectionPrefix('domain'))).toBe(true);
    // The guard, sequence and counter items never fall into a collection's key range.
    for (const key of [spaceNameGuardKey('o', 'a'), sequenceKey('o', 'space'), counterKey('o', 'space')]) {
      expect(key.sk.startsWith(collectionPrefix('space'))).toBe(false);
      expect(key.sk.startsWith(collectionPrefix('domain'))).toBe(false);
    }
  });

  it('writes the key formats the stored tables already hold, byte for byte', () => {
    // Act / Assess: existing items are read with these keys; a changed prefix would lose them.
    expect(itemKey('o', 'space', 1)).toEqual({ pk: 'OWNER#o', sk: 'SPACE#000000000001' });
    expect(itemKey('o', 'domain', 42).sk).toBe('DOMAIN#000000000042');
    expect(nameSortKey('space', 'team', 3)).toBe('SPACE#team\u0001000000000003');
    expect(sequenceKey('o', 'space')).toEqual({ pk: 'OWNER#o', sk: 'SEQUENCE#space' });
    expect(counterKey('o', 'domain')).toEqual({ pk: 'OWNER#o', sk: 'COUNT#domain' });
    expect(spaceNameGuardKey('o', 'team')).toEqual({ pk: 'OWNER#o', sk: 'SPACENAME#team' });
    expect(domainNameGuardKey('example.com')).toEqual({ pk: 'DOMAINNAME#example.com', sk: 'DOMAINNAME#example.com' });
  });

  it('derives one distinct item and guard prefix per kind of the registry', () => {
    // Act
    const prefixes = kinds.flatMap((kind) => [collectionPrefix(kind), nameGuardPrefix(kind)]);
    // Assess: no prefix is the start of another, so a key range never holds another kind's items.
    expect(prefixes).toEqual(['DOMAIN#', 'DOMAINNAME#', 'SPACE#', 'SPACENAME#', 'WEBHOOK#', 'WEBHOOKNAME#']);
    for (const prefix of prefixes) {
      expect(prefixes.filter((other) => other.startsWith(prefix))).toEqual([prefix]);
    }
  });

  it('keeps domain name guards outside every owner’s partition, one per name', () => {
    // Act
    const guard = domainNameGuardKey('example.com');
    // Assess
    expect(guard.pk.startsWith('OWNER#')).toBe(false);
    expect(domainNameGuardKey('example.com')).toEqual(guard);
    expect(domainNameGuardKey('example.org')).not.toEqual(guard);
  });

  it('keeps space name guards per owner', () => {
    // Act / Assess
    expect(spaceNameGuardKey('alice', 'team')).not.toEqual(spaceNameGuardKey('bob', 'team'));
  });

  it('looks api keys up by hash and by prefix outside owner partitions', () => {
    // Act / Assess
    expect(apiKeyKey('abc').pk.startsWith('OWNER#')).toBe(false);
    expect(apiKeyPrefixKey('dsk_abc').pk.startsWith('OWNER#')).toBe(false);
    expect(apiKeyKey('abc')).not.toEqual(apiKeyPrefixKey('abc'));
  });
});

describe('name sort key', () => {
  it('orders names by folded name, then ties by id', () => {
    // Prepare: expected ascending order
    const expected: [string, number][] = [
      ['abc', 3],
      ['abc', 12],
      ['abc d', 1],
      ['abc-d', 2],
      ['abcd', 5],
      ['b', 4],
      ['zoo', 1],
      ['é', 9],
    ];
    const keys = expected.map(([fold, id]) => nameSortKey('space', fold, id));
    // Act
    const sorted = [...keys].reverse().sort(byteOrder);
    // Assess
    expect(sorted).toEqual(keys);
  });

  it('breaks ties by id numerically, not by digits', () => {
    // Act
    const sorted = [nameSortKey('space', 'x', 10), nameSortKey('space', 'x', 9)].sort(byteOrder);
    // Assess
    expect(sorted).toEqual([nameSortKey('space', 'x', 9), nameSortKey('space', 'x', 10)]);
  });
});

describe('foldName', () => {
  it('ignores case', () => {
    // Act / Assess
    expect(foldName('MarKeting')).toBe('marketing');
    expect(foldName('ÉTÉ')).toBe(foldName('été'));
  });

  it('treats composed and decomposed accents as the same name', () => {
    // Act / Assess
    expect(foldName('Cafe\u0301')).toBe(foldName('Café'));
  });
});

describe("the by-name index's sort key", () => {
  it('holds a name whole up to 960 bytes, then its first 960, never cutting a character: within 1,024 bytes', () => {
    // Prepare
    const short = 'marketing';
    const longAscii = 'h'.repeat(5_000);
    const longEmoji = '😀'.repeat(255);
    // Act
    const keys = [short, longAscii, longEmoji].map((fold) => nameSortKey('webhook', fold, 42));
    // Assess
    expect(keys[0]).toBe('WEBHOOK#marketing\u0001000000000042');
    for (const key of keys) expect(Buffer.byteLength(key)).toBeLessThanOrEqual(1_024);
    expect(keys[1]).toBe(`WEBHOOK#${'h'.repeat(960)}\u0001000000000042`);
    expect(keys[2]).toBe(`WEBHOOK#${'😀'.repeat(240)}\u0001000000000042`);
    expect(keys[2]?.isWellFormed()).toBe(true);
  });
});
