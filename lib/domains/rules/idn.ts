/**
 * Internationalised domain names: stored as lowercase ASCII (punycode, `xn--bcher-kva.de`), shown and
 * searched in Unicode too (`bücher.de`), but shown in Unicode only where a browser would show it so: a label
 * that could pass for another (`exаmple` with a Cyrillic `а`) is shown in punycode, with the reason
 * (`displayName`; `./idn-display.ts` holds the rules). Pure and dependency-free (`node:url` is a Node built-in).
 */
import { domainToASCII } from 'node:url';
import { refusedCharacters } from '#lib/platform/characters.ts';
import { type IdnWarning, labelWarning } from './idn-display.ts';
import { decodePunycode } from './punycode.ts';

export type { IdnWarning } from './idn-display.ts';

const ACE_PREFIX = 'xn--';

/**
 * The Unicode form of an `xn--` label (an A-label), or null when it is none: its punycode does not decode, or
 * decodes to ASCII only, or to a label IDNA (UTS #46, as the URL standard applies it) would not write so (not
 * NFC, upper case, a character IDNA maps, drops or disallows, a bidi or joiner rule broken: IDNA's ToASCII of
 * the Unicode form is not the label itself), or to a character no name may hold (`lib/platform/characters.ts`). These
 * are the rules a Unicode name is held to (UTS #46 §4.1: a label that starts with `xn--` is decoded, then
 * checked as Unicode input is); a label without the prefix is returned as it is.
 */
export function decodeLabel(label: string): string | null {
  if (!label.startsWith(ACE_PREFIX)) return label;
  const unicode = decodePunycode(label.slice(ACE_PREFIX.length));
  if (unicode === null || /^\p{ASCII}*$/u.test(unicode)) return null;
  if (refusedCharacters(unicode, 'hostname')) return null;
  return domainToASCII(unicode) === label ? unicode : null;
}

/** The name's labels in Unicode (each `xn--` label decoded), or null if one of them does not decode. */
export function decodeName(asciiName: string): string | null {
  const labels = asciiName.split('.').map(decodeLabel);
  return labels.includes(null) ? null : labels.join('.');
}

export type DisplayName = {
  /** The name as a browser's address bar shows it: each label in Unicode, or in punycode where it is unsafe. */
  unicodeName: string;
  /** Why a label is shown in punycode (the first such label's reason), or null when none is. */
  idnWarning: IdnWarning | null;
};

/**
 * How a stored (ASCII) name is shown: every label decoded, but a label that does not decode (stored before
 * punycode was checked: `xn--a.com`), or that a browser would show in punycode (`./idn-display.ts`), stays in
 * punycode, and the warning says why. An ASCII name is shown as it is.
 */
export function displayName(asciiName: string): DisplayName {
  if (!asciiName.includes(ACE_PREFIX)) return { unicodeName: asciiName, idnWarning: null };
  const labels = asciiName.split('.');
  const top = labels.at(-1) ?? '';
  const topUnicode = decodeLabel(top) ?? top;
  let idnWarning: IdnWarning | null = null;
  const shown = labels.map((label) => {
    const unicode = decodeLabel(label);
    const warning = unicode === null ? 'invalid_punycode' : labelWarning(unicode, top, topUnicode);
    idnWarning ??= warning;
    return warning === null ? (unicode as string) : label;
  });
  return { unicodeName: shown.join('.'), idnWarning };
}

/** The Unicode form of a stored name, as `displayName` shows it. */
export const unicodeName = (asciiName: string) => displayName(asciiName).unicodeName;

/**
 * Whether a stored domain name matches a folded search term (`foldName`: NFC, lowercase) as a substring
 * of its ASCII form or of its decoded Unicode form (whether or not that is shown): `bcher-kva` and `bücher`
 * both find `xn--bcher-kva.de`.
 */
export function domainNameMatches(asciiName: string, search: string): boolean {
  if (asciiName.includes(search)) return true;
  if (!asciiName.includes(ACE_PREFIX)) return false;
  return asciiName
    .split('.')
    .map((label) => decodeLabel(label) ?? label)
    .join('.')
    .includes(search);
}
