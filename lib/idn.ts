/**
 * Internationalised domain names: stored as lowercase ASCII (punycode, `xn--bcher-kva.de`), shown and
 * searched in Unicode too (`bücher.de`). Pure and dependency-free (`node:url` is a Node built-in).
 */
import { domainToUnicode } from 'node:url';

/** The Unicode form of a stored ASCII name; the name itself when it has no punycode label. */
export function unicodeName(asciiName: string): string {
  if (!asciiName.includes('xn--')) return asciiName;
  // An empty answer means a label did not decode; the stored name is then the best we can show.
  return domainToUnicode(asciiName) || asciiName;
}

/**
 * Whether a stored domain name matches a folded search term (`foldName`: NFC, lowercase) as a substring
 * of either form: `bcher-kva` and `bücher` both find `xn--bcher-kva.de`.
 */
export function domainNameMatches(asciiName: string, search: string): boolean {
  return asciiName.includes(search) || unicodeName(asciiName).includes(search);
}
