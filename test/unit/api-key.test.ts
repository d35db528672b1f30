import { describe, expect, it } from 'vitest';
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  KEY_PREFIX,
  keyFromAuthorization,
} from '#lib/auth/rules/api-key.ts';

const key = generateApiKey();

describe('api keys', () => {
  it('are random, prefixed and carry 32 bytes', () => {
    // Act
    const keys = Array.from({ length: 50 }, generateApiKey);
    // Assess
    expect(new Set(keys).size).toBe(keys.length);
    for (const each of keys) {
      expect(each.startsWith(KEY_PREFIX)).toBe(true);
      expect(Buffer.from(each.slice(KEY_PREFIX.length), 'base64url')).toHaveLength(32);
    }
  });

  it('hash to a stable SHA-256 hex digest that does not contain the key', () => {
    // Act
    const hash = hashApiKey(key);
    // Assess
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hash);
    expect(hashApiKey(generateApiKey())).not.toBe(hash);
  });

  it('display only a short prefix', () => {
    // Act
    const prefix = displayPrefix(key);
    // Assess
    expect(key.startsWith(prefix)).toBe(true);
    expect(prefix.length).toBeLessThanOrEqual(KEY_PREFIX.length + 8);
  });
});

describe('Authorization header parsing', () => {
  it.each([`Bearer ${key}`, `bearer ${key}`, `BEARER ${key}`])('reads the key from %s', (header) => {
    // Act / Assess
    expect(keyFromAuthorization(header)).toBe(key);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['another scheme', `Basic ${key}`],
    ['no scheme', key],
    ['two spaces', `Bearer  ${key}`],
    ['a tab', `Bearer\t${key}`],
    ['a trailing word', `Bearer ${key} extra`],
    ['a trailing space', `Bearer ${key} `],
    ['a wrong prefix', `Bearer sk_${key.slice(KEY_PREFIX.length)}`],
    ['a truncated key', `Bearer ${key.slice(0, -1)}`],
    ['an extended key', `Bearer ${key}A`],
    ['characters outside base64url', `Bearer ${key.slice(0, -1)}+`],
    ['padding', `Bearer ${key.slice(0, -1)}=`],
  ])('refuses a header that is %s', (_, header) => {
    // Act / Assess
    expect(keyFromAuthorization(header)).toBeNull();
  });
});
