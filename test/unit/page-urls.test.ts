/**
 * Pages as the URL standard defines them (`lib/platform/urls.ts`): what a request may store, and how a page stored before
 * pages were normalized is shown and served (its href), read as it is, without a migration.
 */
import { describe, expect, it } from 'vitest';
import { recordOf } from '#lib/data/item.ts';
import { presentDomain } from '#lib/domains/api/present.ts';
import { edgeEntryOf } from '#lib/edge/rules/entry.ts';
import { parsePage, storedPage } from '#lib/platform/urls.ts';

/** Pages the service stored before, as sent: they only had to parse as absolute http(s) URLs. */
const OLDER = {
  'https://x.example/a b': 'https://x.example/a%20b',
  'https://x.example/"><script>': 'https://x.example/%22%3E%3Cscript%3E',
  'https://user:secret@x.example/': 'https://x.example/',
  'HTTPS://Bücher.example': 'https://xn--bcher-kva.example/',
  'https://x.example/ü?q=ß#é': 'https://x.example/%C3%BC?q=%C3%9F#%C3%A9',
};

describe('a page', () => {
  it('parses to its href, or says what is wrong: no URL, spaces, credentials', () => {
    // Act / Assess
    expect(parsePage('https://x.example')).toEqual({ href: 'https://x.example/' });
    expect(parsePage('https://x.example/a b')).toEqual({ problem: 'spaces' });
    expect(parsePage('https://u:p@x.example/')).toEqual({ problem: 'credentials' });
    expect(parsePage('ftp://x.example/')).toEqual({ problem: 'invalid' });
    expect(parsePage('x.example')).toEqual({ problem: 'invalid' });
  });

  it('is refused with a character in its host that the URL parser would drop unseen, kept elsewhere', () => {
    // Act / Assess: `https://exa\u00ADmple.com/` would be stored as `https://example.com/`.
    expect(parsePage('https://exa\u00ADmple.com/')).toEqual({ problem: 'invisible' });
    expect(parsePage('https://exa\u034Fmple.com/')).toEqual({ problem: 'invisible' });
    expect(parsePage('https://x.example/a\u00ADb')).toEqual({ href: 'https://x.example/a%C2%ADb' });
  });

  it('stored before pages were normalized is shown as its href', () => {
    // Act / Assess
    for (const [older, href] of Object.entries(OLDER)) expect(storedPage(older), older).toBe(href);
    expect(storedPage(null)).toBeNull();
    expect(storedPage(undefined)).toBeNull();
    expect(storedPage('no page')).toBeNull();
  });

  it('stored before is served by the edge as its href, and shown so by the API', () => {
    // Prepare
    const [index, missing] = Object.keys(OLDER) as [string, string];
    // Act
    const record = edgeEntryOf({ indexPage: index, notFoundPage: missing }, 1);
    const shown = presentDomain(
      recordOf('domain', {
        pk: 'OWNER#o',
        sk: 'DOMAIN#000000000001',
        lsi1sk: 'x',
        kind: 'domain',
        id: 1,
        name: 'example.com',
        fold: 'example.com',
        indexPage: index,
        notFoundPage: missing,
        createdAt: '2025-01-01T00:00:00.000Z',
        updatedAt: '2025-01-01T00:00:00.000Z',
      }),
      { edgeHostname: 'edge.test' },
    );
    // Assess
    expect(record).toEqual({
      s: 'active',
      i: OLDER[index as keyof typeof OLDER],
      n: 'https://x.example/%22%3E%3Cscript%3E',
      t: 1,
    });
    expect(shown).toMatchObject({
      index_page: record.s === 'active' && record.i,
      not_found_page: 'https://x.example/%22%3E%3Cscript%3E',
    });
  });
});
