/**
 * Conditional requests (RFC 9110 §13): a resource's version is its strong entity tag, `"<version>"`. If-Match
 * and If-None-Match on a change are handed to the data layer, which makes its write conditional on a version
 * that satisfied them (412 otherwise: `If-None-Match: *` on an existing resource never does); If-None-Match on
 * a show answers 304 when the representation is the one the client has.
 */
import type { WriteOptions } from '#lib/data/commit.ts';
import { type VersionMatch, versionOf } from '#lib/data/version.ts';
import { type ApiRequest, notModified, ok } from './handler.ts';
import { header } from './headers.ts';
import type { Reply } from './middleware.ts';

type Versioned = { version?: unknown };

/** The `ETag` header of an item. */
export const etagHeaders = (item: Versioned) => ({ ETag: `"${versionOf(item)}"` });

type EntityTag = { weak: boolean; tag: string };

/** `*`, or the list of entity tags (`"3", W/"4"`); a malformed value is a list that matches nothing. */
export function parseEntityTags(value: string): '*' | EntityTag[] {
  if (value.trim() === '*') return '*';
  const tags: EntityTag[] = [];
  const pattern = /\s*(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"\s*(,|$)/y;
  while (pattern.lastIndex < value.length) {
    const match = pattern.exec(value);
    if (!match) return [];
    tags.push({ weak: match[1] !== undefined, tag: match[2] as string });
    if (match[3] === '') break;
  }
  return tags;
}

/** If-Match as the versions it allows: strong comparison, so a weak tag matches nothing. */
export function ifMatch(request: ApiRequest): VersionMatch | undefined {
  const value = header(request.event.headers, 'if-match');
  if (value === undefined) return undefined;
  const tags = parseEntityTags(value);
  if (tags === '*') return 'any';
  return tags.filter((entry) => !entry.weak && /^\d{1,15}$/.test(entry.tag)).map((entry) => Number(entry.tag));
}

/**
 * If-None-Match on a change as the versions it refuses (weak comparison, RFC 9110 §13.1.2): `*` refuses any,
 * for the resource exists; a malformed value refuses none.
 */
export function ifNoneMatch(request: ApiRequest): VersionMatch | undefined {
  const value = header(request.event.headers, 'if-none-match');
  if (value === undefined) return undefined;
  const tags = parseEntityTags(value);
  if (tags === '*') return 'any';
  return tags.filter((entry) => /^\d{1,15}$/.test(entry.tag)).map((entry) => Number(entry.tag));
}

/** The preconditions a change (PUT, PATCH, DELETE) passes to the data layer: If-Match, then If-None-Match. */
export function preconditions(request: ApiRequest): WriteOptions {
  const match = ifMatch(request);
  const noneMatch = ifNoneMatch(request);
  return {
    ...(match === undefined ? {} : { ifMatch: match }),
    ...(noneMatch === undefined ? {} : { ifNoneMatch: noneMatch }),
  };
}

/** Whether If-None-Match names the item's current version (weak comparison), or is `*`. */
function unchanged(request: ApiRequest, item: Versioned): boolean {
  const value = header(request.event.headers, 'if-none-match');
  if (value === undefined) return false;
  const tags = parseEntityTags(value);
  const current = String(versionOf(item));
  return tags === '*' || tags.some((entry) => entry.tag === current);
}

/** A show's answer: 304 without a body when the client has this version, else 200; both with the ETag. */
export function representation(request: ApiRequest, item: Versioned, body: () => unknown): Reply {
  const headers = etagHeaders(item);
  return unchanged(request, item) ? notModified(headers) : ok(body(), headers);
}
