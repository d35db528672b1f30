/**
 * Calling a local stack: its API (the bench's one HTTP client for it) and its edge, as a browser visits a
 * domain there.
 */
import { Agent, request } from 'node:http';

export type Reply = { status: number; data: Record<string, unknown> };
/** A request body: a form (`application/x-www-form-urlencoded`) or JSON. */
export type Body = { form?: Record<string, string>; json?: unknown };
export type Api = (method: string, path: string, body?: Body, key?: string) => Promise<Reply>;

/**
 * A client of the API at `apiUrl` (its base, `…/api/v1`), with `key` as its bearer unless a call names another.
 * An answer of 400 or more throws, with the stack's own output (`describe`) when given.
 */
export function apiClient(apiUrl: string, key: string, describe?: () => string): Api {
  return async (method, path, body, bearer = key) => {
    const response = await fetch(`${apiUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${bearer}`,
        ...(body?.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(body?.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body?.form
        ? new URLSearchParams(body.form).toString()
        : body?.json !== undefined
          ? JSON.stringify(body.json)
          : undefined,
    });
    const text = await response.text();
    if (response.status >= 400) {
      const said = describe ? `\nthe stack said:\n${describe()}` : '';
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}${said}`);
    }
    const parsed = text ? (JSON.parse(text) as { data?: Record<string, unknown> }) : {};
    return { status: response.status, data: parsed.data ?? {} };
  };
}

export type Answer = { status: number; location: string | null };

/** Visits to the edge at `edgeUrl` as a browser at a host makes them (node:http: fetch does not let one set Host). */
export function visitor(edgeUrl: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const visit = (host: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${edgeUrl}/`, { agent, headers: { host } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null }));
      });
      req.on('error', reject);
      req.end();
    });
  return { visit, close: () => agent.destroy() };
}
