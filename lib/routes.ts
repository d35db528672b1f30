/**
 * The route table: the collections the API serves and every route on them, each with its collection,
 * action and the permission scope it needs. Everything else derives from it: the item kinds and key prefixes
 * (`lib/data/keys.ts`), the deleted-object values (`lib/schemas/responses.ts`), the OpenAPI grouping and
 * operation ids (`lib/openapi`), the CDK stack (one Lambda per route, its grants and settings) and the local
 * gateway. Handlers' bundles import only `collections` from here (the route table is marked pure, so it is
 * dropped when unused).
 */
import { type Access, type Collection, collectionNames, collections, itemActions, type Scope } from './kinds.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The methods a path answers (its `Allow`): its routes' methods, HEAD wherever GET is (the same function
 * answers it; the gateway sends no body), and OPTIONS (the CORS preflight, answered by the gateway itself).
 */
export type AllowedMethod = HttpMethod | 'HEAD' | 'OPTIONS';

/** What a route does to its collection, in the order each collection's routes are listed. */
export const resourceActions = ['list', 'store', 'show', 'update', 'destroy'] as const;

/** Actions only some collections have, on one item (`/{id}/<action>`), listed after the resource actions. */
export type ItemAction = (typeof itemActions)[Collection][number];
export type Action = (typeof resourceActions)[number] | ItemAction;

/** The change feed (`/events`) spans every collection: it is not one of them. */
export const feed = 'events';
export type Feed = typeof feed;

/** A route's scope: one collection's, or `*:read`, any read scope (the feed, which shows what those allow). */
export type RouteScope = Scope | '*:read';
export const anyRead = '*:read';

/** What an action needs: reading (list, show, a webhook's deliveries) or writing (every other). */
export const accessOf = (action: Action): Access =>
  action === 'list' || action === 'show' || action === 'deliveries' ? 'read' : 'write';
export const scopeOf = (collection: Collection, action: Action): Scope => `${collection}:${accessOf(action)}`;

/**
 * DynamoDB IAM actions a function may be granted. A transaction needs the action of each item in it
 * (TransactWriteItems has no IAM action of its own). Scan is deliberately not one of them.
 */
export type TableAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem';

/** Configuration a handler reads at cold start besides `TABLE_NAME`; the stack sets exactly these. */
export type RouteSetting =
  | 'CURSOR_SECRET'
  | 'MAX_ITEMS_PER_OWNER'
  | 'MAX_WEBHOOKS_PER_OWNER'
  | 'EDGE_HOSTNAME'
  | 'EDGE_ROUTING_ENDPOINT';

/**
 * Functions that show domains (their `records` name the CNAME target, the stage's edge host name) need
 * `EDGE_HOSTNAME`: every domain route but delete (it answers with the id only), and the feed, whose events carry
 * domains (so does the bus's publisher). `EDGE_ROUTING_ENDPOINT` too, which the stack sets only when the stage
 * has its own edge host name (an apex's ALIAS target).
 */
const showsDomains = (collection: Collection | Feed, action: Action) =>
  (collection === 'domains' && action !== 'destroy') || collection === feed;

export type Route = {
  /** Logical name, used for the Lambda's id and name: `<action>-<collection>` for lists, else `<action>-<kind>`. */
  name: string;
  collection: Collection | Feed;
  action: Action;
  /** The scope a key needs to call this route. */
  scope: RouteScope;
  methods: readonly HttpMethod[];
  path: string;
  /** The function's source file under `functions/`, without extension; each exports `handler`. */
  handler: string;
  /**
   * Exactly the DynamoDB actions the function issues (see `lib/data`): the stack grants these on the table,
   * and on the by-name index too when they include `Query`.
   */
  actions: readonly TableAction[];
  settings?: readonly RouteSetting[];
};

export const apiBasePath = '/api/v1';

type RouteSpec = Pick<Route, 'methods' | 'actions' | 'settings'> & { item: boolean };

/** What each action is on any collection; `update` differs per collection (see `tableActions`). */
function spec(collection: Collection, action: Action): RouteSpec {
  switch (action) {
    case 'list':
      // Query on the table (id order) or the by-name index; GetItem reads the owner's counter.
      return { methods: ['GET'], item: false, actions: ['Query', 'GetItem'], settings: ['CURSOR_SECRET'] };
    case 'store':
      // UpdateItem allocates the id, GetItem reads the feed head (and an Idempotency-Key's record); the
      // transaction Puts the item, its name guard, its event (and the record) and Updates the counter and the
      // feed head. A domain's transaction also checks that no active domain holds the name, and that no page
      // is on another of the owner's active domains (ConditionCheck).
      return {
        methods: ['POST'],
        item: false,
        actions:
          collection === 'domains'
            ? ['UpdateItem', 'GetItem', 'PutItem', 'ConditionCheckItem']
            : ['UpdateItem', 'GetItem', 'PutItem'],
        settings: [collection === 'webhooks' ? 'MAX_WEBHOOKS_PER_OWNER' : 'MAX_ITEMS_PER_OWNER'],
      };
    case 'show':
      return { methods: ['GET'], item: true, actions: ['GetItem'] };
    case 'update':
      // GetItem reads the item and the feed head; the transaction Puts the item (if its version is the one
      // read) and its event and Updates the feed head; renaming a space also moves its
      // name guard (Delete the old one, Put the new one). Domain names never change; a domain's new page is
      // checked not to be on another of the owner's active domains (ConditionCheck on that name's guard).
      return {
        methods: ['PUT', 'PATCH'],
        item: true,
        actions:
          collection === 'spaces'
            ? ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem']
            : collection === 'domains'
              ? ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem']
              : ['GetItem', 'PutItem', 'UpdateItem'],
      };
    case 'destroy':
      // GetItem reads the item and the feed head; the transaction Deletes the item and its guards, Puts the
      // event and Updates the counter and the feed head.
      return { methods: ['DELETE'], item: true, actions: ['GetItem', 'DeleteItem', 'PutItem', 'UpdateItem'] };
    case 'verify':
      // GetItem reads the domain and the feed head (and an Idempotency-Key's record); the transaction Puts the
      // global name guard, the item and its event (and the record) and Updates the feed head; a check that
      // found no match is the same change without the guard. Becoming active, the transaction checks that the
      // domain's pages are not on the owner's other active domains (ConditionCheck on their names' guards).
      // DNS_RESOLVER stays unset on AWS (Lambda's resolver).
      return { methods: ['POST'], item: true, actions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'] };
    case 'rotate-secret':
      // An update: GetItem reads the webhook and the feed head; the transaction Puts it and its event.
      return { methods: ['POST'], item: true, actions: ['GetItem', 'PutItem', 'UpdateItem'] };
    case 'test':
      // GetItem reads the webhook; the attempt is a Put of its record and an UpdateItem of the failure run.
      return { methods: ['POST'], item: true, actions: ['GetItem', 'PutItem', 'UpdateItem'] };
    case 'deliveries':
      // GetItem finds the webhook (a 404 otherwise), Query reads its attempts newest first.
      return { methods: ['GET'], item: true, actions: ['GetItem', 'Query'], settings: ['CURSOR_SECRET'] };
  }
}

function route(collection: Collection, action: Action): Route {
  const { item, settings, ...rest } = spec(collection, action);
  const base = `${apiBasePath}/${collection}`;
  return {
    name: `${action}-${action === 'list' ? collection : collections[collection].kind}`,
    collection,
    action,
    scope: scopeOf(collection, action),
    path: !item ? base : isItemAction(action) ? `${base}/{id}/${action}` : `${base}/{id}`,
    handler: `${collection}/${action}`,
    ...rest,
    ...withSettings(collection, action, settings),
  };
}

function withSettings(collection: Collection | Feed, action: Action, settings: readonly RouteSetting[] = []) {
  const edge: RouteSetting[] = ['EDGE_HOSTNAME', 'EDGE_ROUTING_ENDPOINT'];
  const all: RouteSetting[] = showsDomains(collection, action) ? [...settings, ...edge] : [...settings];
  return all.length > 0 ? { settings: all } : {};
}

const isItemAction = (action: Action) => !(resourceActions as readonly Action[]).includes(action);

/**
 * The change feed: every collection's events, oldest first. Any read scope lets a key call it; the handler shows
 * only the events of the collections the key may read. GetItem reads the event sequence, Query the events.
 */
const eventsRoute: Route = {
  name: 'list-events',
  collection: feed,
  action: 'list',
  scope: anyRead,
  methods: ['GET'],
  path: `${apiBasePath}/${feed}`,
  handler: `${feed}/list`,
  actions: ['GetItem', 'Query'],
  ...withSettings(feed, 'list'),
};

/** Every route: each resource action on each collection, then the collection's own item actions; then the feed. */
export const routes: readonly Route[] = /* @__PURE__ */ [
  ...collectionNames.flatMap((collection) =>
    [...resourceActions, ...itemActions[collection]].map((action) => route(collection, action)),
  ),
  eventsRoute,
];

const allows = (granted: readonly Scope[], scope: RouteScope) =>
  scope === anyRead ? granted.some((entry) => entry.endsWith(':read')) : granted.includes(scope);

/** The routes a key with these scopes may call. */
export const routesFor = (granted: readonly Scope[]): Route[] => routes.filter((r) => allows(granted, r.scope));

/** The authorizer is not a route, but it is bundled and deployed the same way. */
export const authorizerHandler = 'authorizer';

/**
 * The change feed's EventBridge Pipes enrichment (on AWS): not a route, and it has no table access (the pipe
 * reads the stream).
 */
export const eventPublisherHandler = `${feed}/publish`;

/** The authorizer looks the key up (GetItem) and records its last use (a conditional UpdateItem). */
export const authorizerActions: readonly TableAction[] = ['GetItem', 'UpdateItem'];

/** Every deployed function's DynamoDB grant, by function name (the route's name, or the authorizer's). */
export const grantedActions: Readonly<Record<string, readonly TableAction[]>> = Object.fromEntries([
  ...routes.map((route) => [route.name, route.actions] as const),
  [authorizerHandler, authorizerActions] as const,
]);

/** The methods that call a route's function: its own, and HEAD where it has GET. */
export const routeMethods = (route: Pick<Route, 'methods'>): readonly (HttpMethod | 'HEAD')[] =>
  route.methods.includes('GET') ? [...route.methods, 'HEAD'] : route.methods;

/**
 * The OpenAPI document (`docs/openapi.json`), public: no key, and cacheable. It is no route of a function: API
 * Gateway reads it from S3 itself on AWS (`infra/constructs/openapi-document.ts`), the local gateway from the file.
 */
export const documentRoute = {
  path: `${apiBasePath}/openapi.json`,
  methods: ['GET'] as readonly HttpMethod[],
  cacheControl: 'public, max-age=300',
} as const;

/** A path the API serves, as the table writes it (`{id}` segments), with the methods it answers. */
export type ApiPath = { path: string; methods: readonly AllowedMethod[] };

const methodOrder: readonly AllowedMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Every path of the API, in table order, with its `Allow`: its routes' methods, HEAD where GET, and OPTIONS. */
export const apiPaths: readonly ApiPath[] = /* @__PURE__ */ (() => {
  const byPath = new Map<string, Set<AllowedMethod>>();
  for (const entry of [...routes, documentRoute]) {
    const methods = byPath.get(entry.path) ?? new Set<AllowedMethod>(['OPTIONS']);
    for (const method of routeMethods(entry)) methods.add(method);
    byPath.set(entry.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    path,
    methods: methodOrder.filter((method) => methods.has(method)),
  }));
})();

/** Every method some path of the API answers: what a preflight on a path the API does not have allows. */
export const apiMethods: readonly AllowedMethod[] = /* @__PURE__ */ methodOrder.filter((method) =>
  apiPaths.some((entry) => entry.methods.includes(method)),
);

/** Whether a concrete path is the API's base path or under it. */
export const underApi = (path: string): boolean => path === apiBasePath || path.startsWith(`${apiBasePath}/`);

/**
 * A path the API does not have, under its base path, still answers the CORS preflight (so a browser sends the
 * request and shows its 404, instead of failing the fetch); its `Allow` is `OPTIONS`, what such a path answers.
 * On API Gateway it takes a resource: the base path itself, and a greedy `{proxy+}` under it and under each path
 * of the table without a `{…}` child (a resource may have one variable child), so every path under the base path
 * has one; the rest of a greedy resource's methods answer as an unknown path does (404).
 */
export const unknownPathPreflights: readonly string[] = /* @__PURE__ */ (() => {
  const resources = [apiBasePath, ...apiPaths.map((entry) => entry.path)];
  const parent = (path: string) => path.slice(0, path.lastIndexOf('/'));
  const greedy = resources
    .filter((path) => !resources.some((child) => parent(child) === path && child.endsWith('}')))
    .map((path) => `${path}/{proxy+}`);
  return [...(apiPaths.some((entry) => entry.path === apiBasePath) ? [] : [apiBasePath]), ...greedy];
})();
