/**
 * What a served domain takes in the edge's key-value store (lib/edge/rules/entry.ts): pages in their ASCII form, so
 * bytes are predictable, and an entry measured against CloudFront's 1 KB value limit before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import {
  asciiPage,
  EDGE_VALUE_MAX_BYTES,
  edgeEntryOf,
  edgeValueBytes,
  PAGES_MAX_BYTES,
  pagesBytes,
  pagesFit,
  servedEntryBytes,
} from '#lib/edge/rules/entry.ts';

/** An ASCII page of exactly `bytes` bytes. */
const pageOf = (bytes: number) => {
  const start = 'https://www.example.org/';
  return start + 'a'.repeat(bytes - start.length);
};

describe('a page in the store', () => {
  it.each([
    ['an IDN host, in punycode', 'https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['a non-ASCII path, percent-encoded', 'https://example.org/café', 'https://example.org/caf%C3%A9'],
    ['a space in the query, percent-encoded', 'https://example.org/?q=a b', 'https://example.org/?q=a%20b'],
    ['an upper-case scheme and host, lower case', 'HTTPS://Example.ORG/Path', 'https://example.org/Path'],
    ['no page', null, ''],
  ])('keeps %s', (_, page, stored) => {
    expect(asciiPage(page)).toBe(stored);
  });

  it('is ASCII whatever the page holds, so its bytes are its characters', () => {
    // Prepare: four bytes of UTF-8 per character, 40 characters
    const page = `https://example.org/${'😀'.repeat(40)}`;
    // Act
    const stored = asciiPage(page);
    // Assess
    expect(stored).toMatch(/^[\x20-\x7e]+$/);
    expect(stored.length).toBe('https://example.org/'.length + 40 * 12);
  });
});

describe('the entry of a served domain', () => {
  it('costs 46 bytes besides its pages, so the pages may take 978 together', () => {
    expect(servedEntryBytes({})).toBe(46);
    expect(PAGES_MAX_BYTES).toBe(EDGE_VALUE_MAX_BYTES - 46);
  });

  it('fits with pages of exactly the limit, and not with one byte more', () => {
    // Prepare
    const index = pageOf(500);
    const fitting = { indexPage: index, notFoundPage: pageOf(PAGES_MAX_BYTES - 500) };
    const over = { indexPage: index, notFoundPage: pageOf(PAGES_MAX_BYTES - 499) };
    // Assess
    expect(pagesBytes(fitting)).toBe(PAGES_MAX_BYTES);
    expect(servedEntryBytes(fitting)).toBe(EDGE_VALUE_MAX_BYTES);
    expect(pagesFit(fitting)).toBe(true);
    expect(pagesFit(over)).toBe(false);
  });

  it('is measured as the store counts it: a real entry is never larger than its measure', () => {
    // Prepare
    const pages = { indexPage: 'https://example.org/\\x', notFoundPage: pageOf(300) };
    // Act
    const entry = edgeEntryOf(pages, Date.now());
    // Assess: JSON escapes the backslash; the measure uses the widest time stamp
    expect(edgeValueBytes(entry)).toBeLessThanOrEqual(servedEntryBytes(pages));
    expect(new TextEncoder().encode(JSON.stringify(entry)).length).toBe(edgeValueBytes(entry));
  });

  it('refuses two pages of 255 characters that are not ASCII', () => {
    // Prepare: what the API accepted before pages were measured: 255 characters, most of them 6 bytes encoded
    const page = `https://example.org/${'é'.repeat(235)}`;
    // Assess
    expect([...page].length).toBe(255);
    expect(pagesFit({ indexPage: page })).toBe(false);
    expect(pagesFit({ indexPage: page, notFoundPage: page })).toBe(false);
    expect(servedEntryBytes({ indexPage: page, notFoundPage: page })).toBeGreaterThan(2 * 1_024);
  });
});
