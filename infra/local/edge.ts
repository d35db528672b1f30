/**
 * The local edge: what CloudFront serves for verified domains, on this machine. An HTTP server on EDGE_PORT that
 * routes a request by its Host as CloudFront routes it to a tenant (the local CloudFront's enabled, deployed
 * tenant of that host, with its certificate issued, on the stage's distribution), then runs the edge's CloudFront
 * Function (functions/edge/viewer-request.js, in a sandbox) over the stage's key-value store, which the edge sync
 * keeps in line with the table. A host no tenant serves gets CloudFront's own 403, as on AWS.
 *   curl -si -H 'Host: example.com' http://127.0.0.1:$EDGE_PORT/
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EdgeResponse, type EdgeSettings, type KeyValueReader, loadEdgeFunction } from '#infra/edge-function.ts';
import type { LocalCloudFront } from './cloudfront/index.ts';

export type Edge = { url: string; port: number; server: Server; close: () => Promise<void> };

/** The viewer-request event CloudFront would build for this request (structure 1.0, what the function reads). */
function viewerRequest(req: IncomingMessage) {
  const url = new URL(req.url ?? '/', 'http://edge.local');
  const headers: Record<string, { value: string }> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = { value: Array.isArray(value) ? value.join(',') : value };
  }
  return { request: { method: req.method ?? 'GET', uri: url.pathname, headers } };
}

/**
 * What CloudFront answers a request for a host none of its tenants or distributions serves ("The request could
 * not be satisfied", 403): it never reaches the function.
 */
const NOT_SERVED: EdgeResponse = {
  statusCode: 403,
  statusDescription: 'Forbidden',
  headers: { 'content-type': { value: 'text/html' } },
  body: {
    encoding: 'text',
    data: '<html><head><title>ERROR: The request could not be satisfied</title></head><body><h1>403 ERROR</h1><h2>The request could not be satisfied.</h2></body></html>',
  },
};

/** The host CloudFront routes by: the Host header without its port and one trailing dot, lower case. */
const routedHost = (request: { headers: Record<string, { value: string }> }) =>
  (request.headers.host?.value ?? '').trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');

/** The function's `cf.kvs()`: the store's value, or a throw for a key it does not hold, as CloudFront's does. */
function storeReader(cloudFront: LocalCloudFront, kvsArn: string): KeyValueReader {
  return {
    async get(key, options = {}) {
      const value = cloudFront.kvsValue(kvsArn, key);
      if (value === null) throw new Error(`The key ${key} was not found`);
      return options.format === 'json' ? JSON.parse(value) : value;
    },
  };
}

export async function startEdge(options: {
  settings: EdgeSettings;
  /** The local CloudFront, its stage's store and distribution. */
  cloudFront: LocalCloudFront;
  kvsArn: string;
  distributionId: string;
  port?: number;
  host?: string;
  log?: (entry: Record<string, unknown>) => void;
}): Promise<Edge> {
  const { cloudFront, distributionId } = options;
  const handler = loadEdgeFunction(options.settings, storeReader(cloudFront, options.kvsArn));
  const served = (event: ReturnType<typeof viewerRequest>) =>
    cloudFront.servingTenant(routedHost(event.request))?.distributionId === distributionId;
  const server = createServer((req, res) => {
    const event = viewerRequest(req);
    (served(event) ? handler(event) : Promise.resolve(NOT_SERVED))
      .catch((error: unknown): EdgeResponse => {
        // CloudFront answers 503 when a function throws.
        options.log?.({ level: 'error', message: 'Edge function failed', error: String(error) });
        return { statusCode: 503, statusDescription: 'Service Unavailable' };
      })
      .then((response) => {
        const headers = Object.fromEntries(
          Object.entries(response.headers ?? {}).map(([name, header]) => [name, header.value]),
        );
        res.writeHead(response.statusCode, response.statusDescription, headers);
        res.end(req.method === 'HEAD' ? undefined : response.body?.data);
        options.log?.({
          message: 'edge',
          method: event.request.method,
          host: event.request.headers.host?.value,
          uri: event.request.uri,
          status: response.statusCode,
        });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
