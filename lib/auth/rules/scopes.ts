/**
 * What a key may do: the scopes of the route table (`lib/routes.ts`), read from the key tool's `--scopes` and
 * from stored key items. Which scopes a stored key holds is decided here, in one place (`storedScopes`), from
 * what the item stores: its scopes and the scope catalogue it was written under.
 */
import { type Collection, collectionNames, type Scope, scopes } from '#lib/kinds.ts';

/** Every scope, in the route table's order: a new key's default. */
export const allScopes: readonly Scope[] = scopes;

/**
 * Which existing keys a collection's scopes go to when they join the catalogue: `none` (only keys made from
 * then on, given them), or `every-scope-holders` (also each key written before that held every scope of the
 * catalogue it was written under: it was given "everything", and everything now includes these).
 */
export type ExistingKeys = 'none' | 'every-scope-holders';

/**
 * The scope catalogue's versions: each collection's scopes joined it in one (the first: 1), and a collection
 * that joined later says which existing keys get its scopes. Typed by `Collection`, so a new kind does not
 * compile until it says when its scopes came and who gets them. A new kind takes the next version.
 */
type ScopeRelease = { catalogue: 1 } | { catalogue: number; existingKeys: ExistingKeys };

export const scopeReleases = {
  domains: { catalogue: 1 },
  spaces: { catalogue: 1 },
  webhooks: { catalogue: 2, existingKeys: 'every-scope-holders' },
} as const satisfies Record<Collection, ScopeRelease>;

const releaseOf = (collection: Collection): ScopeRelease => scopeReleases[collection];

/** The catalogue version every key item is written with from now on (`scopeCatalogue` on its three items). */
export const SCOPE_CATALOGUE: number = Math.max(...collectionNames.map((c) => releaseOf(c).catalogue));

const collectionOf = (scope: Scope) => scope.slice(0, scope.indexOf(':')) as Collection;
const catalogueOf = (scope: Scope) => releaseOf(collectionOf(scope)).catalogue;

/** The scopes of catalogue versions up to `version`. */
const scopesUpTo = (version: number) => allScopes.filter((scope) => catalogueOf(scope) <= version);

export class InvalidScopesError extends Error {
  override name = 'InvalidScopesError';
}

const isScope = (value: unknown): value is Scope => typeof value === 'string' && allScopes.includes(value as Scope);

/** In the route table's order, each once. */
const ordered = (granted: Iterable<Scope>): Scope[] => {
  const set = new Set(granted);
  return allScopes.filter((scope) => set.has(scope));
};

/**
 * A comma-separated list, as `--scopes` takes it: `domains:read,spaces:read`; `<collection>:*` stands for
 * both of a collection's scopes. Throws, naming the scopes there are, on an unknown one or on none.
 */
export function parseScopes(text: string): Scope[] {
  const granted: Scope[] = [];
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name === '') continue;
    const matches = name.endsWith(':*')
      ? allScopes.filter((scope) => scope.startsWith(name.slice(0, -1)))
      : allScopes.filter((scope) => scope === name);
    if (matches.length === 0) {
      throw new InvalidScopesError(`Unknown scope "${name}". The scopes are: ${allScopes.join(', ')}.`);
    }
    granted.push(...matches);
  }
  if (granted.length === 0) throw new InvalidScopesError(`Give at least one scope: ${allScopes.join(', ')}.`);
  return ordered(granted);
}

/** What a key item stores of its scopes, in any shape written so far. */
export type StoredScopeFields = { scopes?: unknown; scopeCatalogue?: unknown };

/**
 * A key item without `scopeCatalogue` (written before the catalogue had versions), as the legacy rule reads it:
 * without `scopes` (before keys had scopes) it held every scope there was, i.e. catalogue 1's; with `scopes`, it
 * was written under the newest catalogue whose scopes it holds, at least 1. So a key holding exactly the four
 * scopes of catalogue 1 is read as written under it, and gets the webhooks' scopes by their rule, as before this
 * marker existed. A key written after webhooks came but before the marker, with exactly those four, cannot be told
 * from one written before: it is read the same way (README, "Keys, scopes and limits").
 */
function legacyKey(stored: unknown): { version: number; held: Scope[] } {
  if (!Array.isArray(stored)) return { version: 1, held: scopesUpTo(1) };
  const held = stored.filter(isScope);
  // A value this version does not know is not a legacy key's: read it as upgraded already (it widens nothing).
  if (held.length < stored.length) return { version: SCOPE_CATALOGUE, held };
  return { version: Math.max(1, ...held.map(catalogueOf)), held };
}

/**
 * The scopes a stored key holds: those it stores, and those of each catalogue version after the one it was
 * written under that its collection's rule gives it (`every-scope-holders`: when it held every scope before
 * that version). Whether a key is upgraded is decided by the version it stores, never by its scopes alone; only
 * items written before the marker are read by the legacy rule (`legacyKey`). A scope this version does not know
 * (written by a newer one) grants nothing; a version newer than this one's is read as this one.
 */
export function storedScopes(item: StoredScopeFields): Scope[] {
  const marked = typeof item.scopeCatalogue === 'number' && Number.isInteger(item.scopeCatalogue);
  const { version, held } = marked
    ? { version: item.scopeCatalogue as number, held: Array.isArray(item.scopes) ? item.scopes.filter(isScope) : [] }
    : legacyKey(item.scopes);
  const granted = new Set(held);
  for (let next = version + 1; next <= SCOPE_CATALOGUE; next++) {
    const heldEverything = scopesUpTo(next - 1).every((scope) => granted.has(scope));
    for (const collection of collectionNames) {
      const release = releaseOf(collection);
      if (release.catalogue !== next || !('existingKeys' in release)) continue;
      if (release.existingKeys === 'every-scope-holders' && heldEverything) {
        granted.add(`${collection}:read`);
        granted.add(`${collection}:write`);
      }
    }
  }
  return ordered(granted);
}

/**
 * The scopes as the authorizer passes them to every function in its context: comma-separated (context
 * values must be strings, numbers or booleans). `contextScopes` reads them back; an answer without them
 * (none is given today) is null: the caller decides.
 */
export const scopesContext = (granted: readonly Scope[]): string => granted.join(',');

export function contextScopes(value: unknown): Scope[] | null {
  if (typeof value !== 'string') return null;
  return ordered(
    value
      .split(',')
      .map((part) => part.trim())
      .filter(isScope),
  );
}
