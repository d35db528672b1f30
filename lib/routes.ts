/**
 * The route table: read by the CDK stack (one Lambda per route) and by the local gateway.
 * `handler` is the function's source file under `functions/`, without extension; each exports `handler`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * DynamoDB IAM actions a function may be granted. A transaction needs the action of each item in it
 * (TransactWriteItems has no IAM action of its own). Scan is deliberately not one of them.
 */
export type TableAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem';

/** Configuration a handler reads at cold start besides `TABLE_NAME`; the stack sets exactly these. */
export type RouteSetting = 'CURSOR_SECRET' | 'MAX_ITEMS_PER_OWNER';

export type Route = {
  /** Logical name, used for the Lambda's id and name. */
  name: string;
  methods: readonly HttpMethod[];
  path: string;
  handler: string;
  /**
   * Exactly the DynamoDB actions the function issues (see `lib/data`): the stack grants these on the table,
   * and on the by-name index too when they include `Query`.
   */
  actions: readonly TableAction[];
  settings?: readonly RouteSetting[];
};

export const apiBasePath = '/api/v1';

const collections = ['domains', 'spaces'] as const;

export const routes: readonly Route[] = collections.flatMap((collection): Route[] => {
  const single = collection.slice(0, -1);
  const base = `${apiBasePath}/${collection}`;
  return [
    {
      name: `list-${collection}`,
      methods: ['GET'],
      path: base,
      handler: `${collection}/list`,
      // Query on the table (id order) or the by-name index; GetItem reads the owner's counter.
      actions: ['Query', 'GetItem'],
      settings: ['CURSOR_SECRET'],
    },
    {
      name: `store-${single}`,
      methods: ['POST'],
      path: base,
      handler: `${collection}/store`,
      // UpdateItem allocates the id; the transaction Puts the item and its name guard and Updates the counter.
      actions: ['UpdateItem', 'PutItem'],
      settings: ['MAX_ITEMS_PER_OWNER'],
    },
    {
      name: `show-${single}`,
      methods: ['GET'],
      path: `${base}/{id}`,
      handler: `${collection}/show`,
      actions: ['GetItem'],
    },
    {
      name: `update-${single}`,
      methods: ['PUT', 'PATCH'],
      path: `${base}/{id}`,
      handler: `${collection}/update`,
      // A conditional UpdateItem (GetItem when nothing changes); renaming a space moves its name guard in a
      // transaction (Update the item, Delete the old guard, Put the new one). Domain names never change.
      actions: collection === 'spaces' ? ['GetItem', 'UpdateItem', 'DeleteItem', 'PutItem'] : ['GetItem', 'UpdateItem'],
    },
    {
      name: `destroy-${single}`,
      methods: ['DELETE'],
      path: `${base}/{id}`,
      handler: `${collection}/destroy`,
      // GetItem reads the name; the transaction Deletes the item and its guard and Updates the counter.
      actions: ['GetItem', 'DeleteItem', 'UpdateItem'],
    },
  ];
});

/** The authorizer is not a route, but it is bundled and deployed the same way. */
export const authorizerHandler = 'authorizer';

/** The authorizer only looks the key up. */
export const authorizerActions: readonly TableAction[] = ['GetItem'];

/** Every deployed function's DynamoDB grant, by function name (the route's name, or the authorizer's). */
export const grantedActions: Readonly<Record<string, readonly TableAction[]>> = Object.fromEntries([
  ...routes.map((route) => [route.name, route.actions] as const),
  [authorizerHandler, authorizerActions] as const,
]);

export type RouteMatch = { route: Route; pathParameters: Record<string, string> | null };

/** Matches a concrete path against the table, the way API Gateway resolves `{param}` segments. */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    if (!route.methods.includes(method as HttpMethod)) continue;
    const template = route.path.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = template.every((part, index) => {
      const segment = segments[index] as string;
      if (part.startsWith('{') && part.endsWith('}')) {
        if (segment === '') return false;
        params[part.slice(1, -1)] = segment;
        return true;
      }
      return part === segment;
    });
    if (matches) return { route, pathParameters: Object.keys(params).length ? params : null };
  }
  return undefined;
}
