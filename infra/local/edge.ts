/**
 * The local edge: what CloudFront serves for verified domains, on this machine. An HTTP server on EDGE_PORT that
 * runs the edge's CloudFront Function (functions/edge/viewer-request.js, in a sandbox) against a local
 * key-value store, which `followChanges` keeps in line with the table from the change feed, as the sync
 * function does on AWS from the event bus.
 *   curl -si -H 'Host: example.com' http://127.0.0.1:$EDGE_PORT/
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type EdgeResponse, type EdgeSettings, loadEdgeFunction } from '#infra/edge-function.ts';
import type { LocalKeyValueStore } from './key-value-store.ts';

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

export async function startEdge(options: {
  settings: EdgeSettings;
  store: LocalKeyValueStore;
  port?: number;
  host?: string;
  log?: (entry: Record<string, unknown>) => void;
}): Promise<Edge> {
  const handler = loadEdgeFunction(options.settings, options.store);
  const server = createServer((req, res) => {
    const event = viewerRequest(req);
    handler(event)
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
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
