/**
 * Item versions: every write increments an item's `version` (its strong ETag, RFC 9110); items stored before
 * versions existed have none and are version 0, so they keep working and their first change makes them 1.
 * Pure, so show and list bundles can name a version without the write path.
 */
import { VersionMismatch } from './errors.ts';

export const versionOf = (item: { version?: unknown }): number => (typeof item.version === 'number' ? item.version : 0);

/** What If-Match requires of the item's version: any version (`*`), or one of these. */
export type VersionMatch = 'any' | readonly number[];

/** Whether an item of this version satisfies If-Match (no header: always). */
export function versionMatches(match: VersionMatch | undefined, version: number): boolean {
  return match === undefined || match === 'any' || match.includes(version);
}

/**
 * Throws `VersionMismatch` when a change's preconditions do not hold for this version (RFC 9110 §13.2.2):
 * If-Match must name it (or be `*`), If-None-Match must not (`*`: the resource exists, so it never holds).
 */
export function assertVersion(match: VersionMatch | undefined, version: number, noneMatch?: VersionMatch): void {
  if (!versionMatches(match, version)) throw new VersionMismatch();
  if (noneMatch !== undefined && versionMatches(noneMatch, version)) throw new VersionMismatch();
}

/** A write's condition that the item still has the version read (`#version`, `:version`). */
export function versionCondition(version: number) {
  return version === 0
    ? { expression: 'attribute_not_exists(#version)', names: { '#version': 'version' }, values: {} }
    : { expression: '#version = :version', names: { '#version': 'version' }, values: { ':version': version } };
}
