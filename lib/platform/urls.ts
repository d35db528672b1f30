/**
 * Page URLs as the URL standard (WHATWG, Node's `URL`) defines them, shared by the request schemas, the data
 * layer, the presenters and the edge's entries (none imports another). Pure.
 */
import { refusedCharacters } from '#lib/platform/characters.ts';

/** The host a page URL points at, as a stored domain name is written (`example.com.` is `example.com`). */
export const pageHost = (url: string) => new URL(url).hostname.replace(/\.$/, '');

/**
 * Why a value is not a page: not an absolute http(s) URL, one with spaces in it, with a user name or password,
 * or with a character in its host that the URL parser drops or maps away unseen (a soft hyphen).
 */
export type PageProblem = 'invalid' | 'spaces' | 'credentials' | 'invisible';

/**
 * A page as it is stored and shown: the `href` of the absolute http or https URL the value parses to (ASCII:
 * the host in punycode, the rest percent-encoded, a path at least `/`), or what is wrong with it. (How long
 * the hrefs of a domain's pages may be together is the edge's limit: `lib/edge/rules/entry.ts`.) A value with
 * spaces inside is refused rather than encoded (`a b` was meant as two words, or is a paste gone wrong), and so
 * is one with credentials (a redirect must not carry them, and `https://bank.example@evil.example/` would
 * read as another host).
 */
export function parsePage(value: string): { href: string } | { problem: PageProblem } {
  const url = webUrl(value);
  if (!url) return { problem: 'invalid' };
  if (/\s/u.test(value)) return { problem: 'spaces' };
  if (url.username !== '' || url.password !== '') return { problem: 'credentials' };
  // The host as written (up to its path, query or fragment; `\` is a slash in an http(s) URL).
  const host = value.replace(/^https?:\/\//i, '').split(/[/?#\\]/)[0] ?? '';
  if (refusedCharacters(host, 'hostname')) return { problem: 'invisible' };
  return { href: url.href };
}

/** The absolute http(s) URL a value parses to, or undefined. */
function webUrl(value: string): URL | undefined {
  const url = URL.parse(value);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
}

/**
 * A stored page as it is shown and served: its `href`. Pages stored before they were normalized were checked
 * as absolute http(s) URLs only, so they may hold spaces (encoded here, as a browser would), Unicode (in
 * punycode, percent-encoded) or credentials (dropped); anything that no longer parses as one is no page (null).
 */
export function storedPage(value: string | null | undefined): string | null {
  const url = typeof value === 'string' ? webUrl(value) : undefined;
  if (!url) return null;
  url.username = '';
  url.password = '';
  return url.href;
}
