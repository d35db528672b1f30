/**
 * A domain's name, defined once: what a request may send (a DNS hostname, normalized to lowercase ASCII),
 * its pattern and description in the document.
 */
import { domainToASCII } from 'node:url';
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { characterCount, type Encoding, text } from '#lib/schemas/fields.ts';
import { ALNUM, labelPattern, NAME_CHARACTERS } from '#lib/schemas/patterns.ts';
import { DNS_NAME_MAX, VERIFIABLE_NAME_MAX, VERIFICATION_PREFIX } from '#lib/verification.ts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/** Characters that make a URL, a port, a wildcard or free text rather than a hostname. */
const NOT_IN_HOSTNAME = /[\s/:*@?#\\%[\]]/u;

/** The name as written, without the `http(s)://` prefix and trailing `/` a user may paste with it. */
const bareDomainName = (input: string) =>
  input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '');

/** The stored form of a domain name: lowercase ASCII (punycode), or null if it is not a DNS hostname. */
export function normalizeDomainName(input: string): string | null {
  const bare = bareDomainName(input);
  if (bare === '' || characterCount(bare) > DNS_NAME_MAX || NOT_IN_HOSTNAME.test(bare)) return null;
  const ascii = domainToASCII(bare);
  if (ascii === '' || ascii.length > DNS_NAME_MAX) return null;
  const labels = ascii.split('.');
  const top = labels.at(-1) as string;
  if (labels.length < 2 || /^[0-9]+$/.test(top)) return null;
  return labels.every((part) => LABEL.test(part)) ? ascii : null;
}

/** Names longer than `VERIFIABLE_NAME_MAX` are valid in DNS, but `_ds-challenge.<name>` is not. */
export const tooLongToVerify = () =>
  `The name field must not be greater than ${VERIFIABLE_NAME_MAX} characters in its ASCII (punycode) form, ` +
  `so that its verification record (${VERIFICATION_PREFIX}.<name>) fits in DNS's ${DNS_NAME_MAX}.`;

export const domainName = (encoding: Encoding) =>
  v.pipe(
    text('name', { encoding, name: true }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value as string;
      if (value === '') {
        addIssue({ message: 'The name field is required.' });
        return NEVER;
      }
      // The limit is on the name, not on the `https://` or `/` around it.
      if (characterCount(bareDomainName(value)) > DNS_NAME_MAX) {
        addIssue({ message: `The name field must not be greater than ${DNS_NAME_MAX} characters.` });
        return NEVER;
      }
      const normalized = normalizeDomainName(value);
      // A valid DNS name, but its verification record's name would not be: it could never become active.
      if (normalized !== null && normalized.length > VERIFIABLE_NAME_MAX) {
        addIssue({ message: tooLongToVerify() });
        return NEVER;
      }
      if (normalized === null) {
        // A Unicode name within the limit may still grow past it in punycode: say so, not "invalid".
        const tooLong = domainToASCII(bareDomainName(value)).length > DNS_NAME_MAX;
        addIssue({
          message: tooLong
            ? `The name field must not be greater than ${DNS_NAME_MAX} characters in its ASCII (punycode) form.`
            : 'The name field must be a valid domain name.',
        });
        return NEVER;
      }
      return normalized;
    }),
  );

/**
 * A domain name in ASCII, as it is stored: labels of letters, digits and hyphens, at least two, the last
 * starting with a letter (so that it is no number, which the URL standard reads as an IPv4 address). A Unicode
 * name (an IDN), and its punycode form, are accepted too: IDNA decides, which a pattern cannot state.
 */
export function domainNamePattern(): string {
  return `^(${labelPattern(ALNUM)}\\.)+${labelPattern('A-Za-z')}$`;
}

export const domainNameDoc = (): JsonSchema => ({
  type: 'string',
  minLength: 1,
  maxLength: VERIFIABLE_NAME_MAX,
  pattern: domainNamePattern(),
  description:
    'A DNS hostname with at least two labels, stored lowercased. The pattern states the ASCII names: labels of ' +
    'letters, digits and hyphens (none at either end, nor in both the third and fourth places), the last ' +
    'starting with a letter. The service also takes a Unicode name (an IDN), checked by IDNA (UTS #46) and ' +
    'stored in punycode, or its punycode (`xn--`) form, and a last label that starts with a digit but is no ' +
    `number (\`example.1a\`); of at most ${VERIFIABLE_NAME_MAX} characters in ASCII so that ` +
    `the verification record (\`${VERIFICATION_PREFIX}.<name>\`) fits in DNS's ${DNS_NAME_MAX}. A leading ` +
    '`http://` or `https://`, a trailing `/` and spaces around it are tolerated and removed. ' +
    `${NAME_CHARACTERS} Refused when this owner already has the name, or when it is active under another owner.`,
  examples: ['example.com'],
});
