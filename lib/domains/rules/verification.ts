/**
 * Domain verification: the TXT record an owner publishes to prove a domain is theirs. Pure (no I/O), so the
 * request schemas, the presenter and the data layer share it; `verifyDomain` (`lib/domains/data/domains.ts`) does
 * the lookup and the write, and throws `VerificationMismatch` (worded by `lib/http/data-errors.ts`).
 *
 * The record lives at `_ds-challenge.<name>` (a stable prefix: an underscore label is never a host name, so
 * it clashes with no record the domain already serves, and a CNAME at the name itself does not hide it)
 * and holds a random token, unique per domain, that never changes.
 */
import { randomBytes } from 'node:crypto';
import type { TxtLookup } from '#lib/dns/rules/answers.ts';

export const VERIFICATION_PREFIX = '_ds-challenge';

/**
 * A DNS name holds at most 253 characters in its ASCII form, without the root's trailing dot (RFC 1035): so does a
 * domain name, and so does its verification name (the prefix, a dot and the name).
 */
export const DNS_NAME_MAX = 253;

/** The longest domain name whose verification name still fits in DNS: 253 − `_ds-challenge.` = 239. */
export const VERIFIABLE_NAME_MAX = DNS_NAME_MAX - VERIFICATION_PREFIX.length - 1;

export const verificationName = (name: string) => `${VERIFICATION_PREFIX}.${name}`;

/** 24 random bytes, base64url: 32 characters a TXT record holds as they are (no quoting, no escaping). */
export const newVerificationToken = () => randomBytes(24).toString('base64url');

/** Whether one of the TXT values is the token (surrounding white space is forgiven). */
export const holdsToken = (values: readonly string[], token: string) => values.some((value) => value.trim() === token);
