/**
 * The route table: read by the CDK stack (one Lambda per route) and by the local gateway.
 * `handler` is the function's source file under `functions/`, without extension; each exports `handler`.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Route = {
  /** Logical name, used for the Lambda's id and name. */
  name: string;
  methods: readonly HttpMethod[];
  path: string;
  handler: string;
  /** DynamoDB access the function needs; the stack grants exactly this. */
  access: 'read' | 'write';
};

export const apiBasePath = '/api/v1';

const collections = ['domains', 'spaces'] as const;

export const routes: readonly Route[] = collections.flatMap((collection): Route[] => {
  const single = collection.slice(0, -1);
  const base = `${apiBasePath}/${collection}`;
  return [
    { name: `list-${collection}`, methods: ['GET'], path: base, handler: `${collection}/list`, access: 'read' },
    { name: `store-${single}`, methods: ['POST'], path: base, handler: `${collection}/store`, access: 'write' },
    { name: `show-${single}`, methods: ['GET'], path: `${base}/{id}`, handler: `${collection}/show`, access: 'read' },
    {
      name: `update-${single}`,
      methods: ['PUT', 'PATCH'],
      path: `${base}/{id}`,
      handler: `${collection}/update`,
      access: 'write',
    },
    {
      name: `destroy-${single}`,
      methods: ['DELETE'],
      path: `${base}/{id}`,
      handler: `${collection}/destroy`,
      access: 'write',
    },
  ];
});

/** The authorizer is not a route, but it is bundled and deployed the same way. */
export const authorizerHandler = 'authorizer';

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
