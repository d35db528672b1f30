/**
 * A domain's name, defined once: what a request may send (a DNS hostname, normalized to lowercase ASCII),
 * which names are the service's own and no customer's, its patterns and description in the document.
 */
import { domainToASCII } from 'node:url';
import type { JsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { decodeLabel } from '#lib/domains/rules/idn.ts';
import { DNS_NAME_MAX, VERIFIABLE_NAME_MAX, VERIFICATION_PREFIX } from '#lib/domains/rules/verification.ts';
import { fieldType as fieldTypeRef } from '#lib/kind-module.ts';
import { refusedCharacters } from '#lib/platform/characters.ts';
import { characterCount, type Encoding, text } from '#lib/schemas/fields.ts';
import { ALNUM, characterClass, labelPattern, NAME_CHARACTERS, nameClasses } from '#lib/schemas/patterns.ts';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
/**
 * An LDH label with hyphens in its third and fourth places is reserved (RFC 5890 §2.3.1, "R-LDH"): of them only
 * `xn--`, an A-label, is defined, and it must decode to a label IDNA takes (`decodeLabel`).
 */
const RESERVED_LDH = /^..--/;
/** Characters that make a URL, a port, a wildcard or free text rather than a hostname. */
const NOT_IN_HOSTNAME = /[\s/:*@?#\\%[\]]/u;

/** The name as written, without the `http(s)://` prefix and trailing `/` a user may paste with it. */
const bareDomainName = (input: string) =>
  input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/$/, '');

const validLabel = (label: string) =>
  LABEL.test(label) && (!RESERVED_LDH.test(label) || (label.startsWith('xn--') && decodeLabel(label) !== null));

/**
 * The stored form of a domain name: lowercase ASCII (punycode), or null if it is not a DNS hostname. A
 * character IDNA would drop or map away unseen (a default-ignorable, format or private-use one) is refused, not
 * dropped (`exa\u034Fmple.org` is no `example.org`); a punycode label is decoded and held to the rules of
 * Unicode input (`xn--a.com` is refused).
 */
export function normalizeDomainName(input: string): string | null {
  const bare = bareDomainName(input);
  if (bare === '' || characterCount(bare) > DNS_NAME_MAX || NOT_IN_HOSTNAME.test(bare)) return null;
  if (refusedCharacters(bare, 'hostname')) return null;
  const ascii = domainToASCII(bare);
  if (ascii === '' || ascii.length > DNS_NAME_MAX) return null;
  const labels = ascii.split('.');
  const top = labels.at(-1) as string;
  if (labels.length < 2 || /^[0-9]+$/.test(top)) return null;
  return labels.every(validLabel) ? ascii : null;
}

/**
 * Names that are the platform's own, never a customer's, with every name under them: `localhost` (RFC 6761:
 * every resolver answers it with loopback; the local edge is `edge.localhost`), CloudFront's `cloudfront.net`
 * (a stage's routing endpoint is `d….cloudfront.net`) and AWS's `amazonaws.com` (the API's own host,
 * `<id>.execute-api.<region>.amazonaws.com`, and a custom domain's regional target). Refusing them whole is
 * how the store function knows the API's host without being given it: its id is made with the function, so
 * handing it over would be a cycle in the stack.
 */
export const PLATFORM_DOMAINS: readonly string[] = ['localhost', 'cloudfront.net', 'amazonaws.com'];

/** The names a stage keeps for itself: its edge host name (`EDGE_HOSTNAME`, what domains point at) and the platform's. */
export const reservedNamesOf = (edgeHostname: string): readonly string[] => [edgeHostname, ...PLATFORM_DOMAINS];

/** The reserved name a stored name is, or is under; undefined for a customer's name. */
export const reservedBy = (name: string, reserved: readonly string[]) =>
  reserved.find((own) => name === own || name.endsWith(`.${own}`));

/** A verification of a name stored before the service kept its own names: refused as a store now is. */
export class ReservedNameError extends Error {
  constructor(readonly own: string) {
    super(`The name is, or is under, the service's own ${own}`);
    this.name = 'ReservedNameError';
  }
}

export const reservedMessage = (own: string) =>
  `The name field must not be ${own} or a name under it: that is this service's own host.`;

/** Names longer than `VERIFIABLE_NAME_MAX` are valid in DNS, but `_ds-challenge.<name>` is not. */
export const tooLongToVerify = () =>
  `The name field must not be greater than ${VERIFIABLE_NAME_MAX} characters in its ASCII (punycode) form, ` +
  `so that its verification record (${VERIFICATION_PREFIX}.<name>) fits in DNS's ${DNS_NAME_MAX}.`;

/** A domain name as a store takes it; `reserved`: the names no customer may hold (`reservedNamesOf`). */
export const domainName = (encoding: Encoding, reserved: readonly string[] = PLATFORM_DOMAINS) =>
  v.pipe(
    text('name', { encoding, characters: 'hostname' }),
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
      const own = reservedBy(normalized, reserved);
      if (own !== undefined) {
        addIssue({ message: reservedMessage(own) });
        return NEVER;
      }
      return normalized;
    }),
  );

/**
 * A domain name in ASCII, as it is stored: labels of letters, digits and hyphens, at least two, the last
 * starting with a letter (so that it is no number, which the URL standard reads as an IPv4 address), none with
 * hyphens in its third and fourth places (`xn--`: see the other forms). Every name it matches is taken (but the
 * reserved ones).
 */
export function domainNamePattern(): string {
  return `^(${labelPattern(ALNUM)}\\.)+${labelPattern('A-Za-z')}$`;
}

/** What IDNA (UTS #46) reads as a label separator: the full stop, and the ideographic and full-width ones. */
const DOTS = '.\\u3002\\uFF0E\\uFF61';

/**
 * Every other form the service takes, loosely: a name of any case, in Unicode, in punycode, or with a last label
 * starting with a digit, written with `http://` or `https://` before it, a `/` after it, or spaces around it (as
 * pasted from an address bar): labels of characters a hostname may hold, separated by dots. IDNA decides which of
 * them are names, which a pattern cannot state; the service refuses the others with its own 422.
 */
export function domainNameFormsPattern(): string {
  const { refused, trimmed, spaces } = nameClasses();
  const syntax = characterClass(/[\s/:*@?#\\%[\].\u3002\uFF0E\uFF61]/u);
  const label = `[^${refused}${trimmed}${syntax}]+`;
  return `^[${spaces}]*([Hh][Tt][Tt][Pp][Ss]?://)?${label}([${DOTS}]${label})+/?[${spaces}]*$`;
}

/** The domain name field's type (`DomainName`, one component: its patterns are long). */
export const domainNameType = (): JsonSchema => ({
  description:
    'A DNS hostname with at least two labels, stored lowercased in ASCII: a Unicode name (an IDN) is checked by ' +
    'IDNA (UTS #46) and stored in punycode, and a punycode (`xn--`) label is decoded and held to the same rules. ' +
    `At most ${VERIFIABLE_NAME_MAX} characters in ASCII, so that the verification record ` +
    `(\`${VERIFICATION_PREFIX}.<name>\`) fits in DNS's ${DNS_NAME_MAX}. A leading \`http://\` or \`https://\`, a ` +
    'trailing `/` and spaces around it are tolerated and removed. The forms: the name as stored (ASCII, any case; ' +
    'its pattern is exact), an IDN (`idn-hostname`), or any of them as pasted (its pattern is loose: IDNA decides). ' +
    `${NAME_CHARACTERS} Refused (422) when IDNA refuses it, when a label has hyphens in its third and fourth ` +
    "places but is no valid punycode, when it is one of the service's own host names or a name under one (the " +
    "stage's edge host name, which domains point at, `localhost`, `cloudfront.net`, `amazonaws.com`), when this " +
    'owner already has the name, or when it is active under another owner.',
  examples: ['example.com'],
  anyOf: [
    { type: 'string', minLength: 1, maxLength: VERIFIABLE_NAME_MAX, pattern: domainNamePattern() },
    { type: 'string', minLength: 1, maxLength: VERIFIABLE_NAME_MAX, format: 'idn-hostname' },
    { type: 'string', minLength: 1, pattern: domainNameFormsPattern() },
  ],
});

export const domainNameDoc = (): JsonSchema => fieldTypeRef('DomainName');
