/**
 * What a key may do: the scopes of the route table (`lib/routes.ts`), read from the key tool's `--scopes` and
 * from stored key items. A key created before scopes existed has none stored and may do everything.
 */
import { type Scope, scopes } from '#lib/kinds.ts';

/** Every scope, in the route table's order: a new key's default, and what a key of the old shape holds. */
export const allScopes: readonly Scope[] = scopes;

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

/**
 * Every scope there was before webhooks: a key stored with all of them was given every scope (the key tool's
 * default, or each one named), so it holds the webhooks' too. A key stored with some of them keeps just those.
 */
const EVERY_SCOPE_BEFORE_WEBHOOKS: readonly string[] = ['domains:read', 'domains:write', 'spaces:read', 'spaces:write'];

const isEveryScopeOfOld = (value: readonly unknown[]) =>
  value.length === EVERY_SCOPE_BEFORE_WEBHOOKS.length &&
  EVERY_SCOPE_BEFORE_WEBHOOKS.every((scope) => value.includes(scope));

/**
 * The scopes a stored key holds. An item written before keys had scopes has no `scopes` attribute: it keeps
 * every scope; so does one written with every scope there was then (upgraded on read: `isEveryScopeOfOld`). A
 * scope this version does not know (written by a newer one) grants nothing.
 */
export function storedScopes(value: unknown): Scope[] {
  if (!Array.isArray(value) || isEveryScopeOfOld(value)) return [...allScopes];
  return ordered(value.filter(isScope));
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
