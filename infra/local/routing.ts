/**
 * Matching a request against the route table as API Gateway does (its resources and methods), for the local
 * gateway and the Lambda event builder: which route a method and path call, and which API path a path is.
 */
import { type ApiPath, apiPaths, type HttpMethod, type Route, routeMethods, routes } from '#lib/routes.ts';

/** A concrete path's `{param}` values when it matches the template, the way API Gateway resolves them. */
function matchTemplate(templatePath: string, path: string): Record<string, string> | undefined {
  const segments = path.split('/');
  const template = templatePath.split('/');
  if (template.length !== segments.length) return undefined;
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
  return matches ? params : undefined;
}

/** The API path a concrete path is (whatever the method), or undefined: API Gateway has no such resource. */
export const matchPath = (path: string): ApiPath | undefined =>
  apiPaths.find((entry) => matchTemplate(entry.path, path) !== undefined);

export type RouteMatch = { route: Route; pathParameters: Record<string, string> | null };

/** Matches a method and a concrete path against the table (HEAD calls the GET route's function). */
export function matchRoute(method: string, path: string): RouteMatch | undefined {
  for (const route of routes) {
    if (!routeMethods(route).includes(method as HttpMethod)) continue;
    const params = matchTemplate(route.path, path);
    if (params) return { route, pathParameters: Object.keys(params).length ? params : null };
  }
  return undefined;
}
