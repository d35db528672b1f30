/**
 * The kinds of resource the API serves, on the ground floor: the data layer's keys (`lib/data/keys.ts`), the
 * route table (`lib/routes.ts`) and the resource registry (`lib/resources/`) all start from this list.
 */

/**
 * The collections, in the order the route table and the document list them. `kind` is the singular the data
 * layer stores (item key prefixes, `deleted.object`); `title` and `tag` are the display names.
 */
export const collections = {
  domains: { kind: 'domain', title: 'Domain', tag: 'Domains' },
  spaces: { kind: 'space', title: 'Space', tag: 'Spaces' },
} as const;

export type Collection = keyof typeof collections;
export type Kind = (typeof collections)[Collection]['kind'];

export const collectionNames = /* @__PURE__ */ Object.keys(collections) as Collection[];
export const kinds: readonly Kind[] = /* @__PURE__ */ collectionNames.map((collection) => collections[collection].kind);

/** What a key may do: read (list, show) or write (store, update, destroy) one collection. */
export type Access = 'read' | 'write';
export type Scope = `${Collection}:${Access}`;
export const scopes: readonly Scope[] = /* @__PURE__ */ collectionNames.flatMap((collection) => [
  `${collection}:read` as const,
  `${collection}:write` as const,
]);
