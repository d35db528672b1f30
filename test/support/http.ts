/** A small HTTP client for end-to-end tests against the local gateway. */
import { randomUUID } from 'node:crypto';
import { ActionRecorder } from '#infra/local/dynamodb-recorder.ts';
import { type Gateway, type GatewayOptions, startGateway } from '#infra/local/gateway.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { grantedActions } from '#lib/routes.ts';
import { config, db } from './database.ts';
import { checkResponse } from './openapi.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI document in send(); tests read them freely.
export type Reply<Body = any> = { status: number; headers: Headers; body: Body; text: string };

export type Client = {
  key: string;
  owner: string;
  request(
    method: string,
    path: string,
    options?: {
      form?: Record<string, string | string[]>;
      json?: unknown;
      /** Bytes as they are (a `Uint8Array`: not UTF-8-encoded first). */
      body?: string | Uint8Array;
      headers?: Record<string, string>;
    },
  ): Promise<Reply>;
  get(path: string, query?: Record<string, string | number>): Promise<Reply>;
  post(path: string, form: Record<string, string | string[]>): Promise<Reply>;
  patch(path: string, form: Record<string, string | string[]>): Promise<Reply>;
  put(path: string, form: Record<string, string | string[]>): Promise<Reply>;
  delete(path: string): Promise<Reply>;
};

/**
 * The local gateway on a free port, over the test file's table; options override the test defaults. While it
 * runs, the DynamoDB actions of every function are recorded; closing it fails if a function issued one its
 * route does not declare (its IAM grant on AWS), whatever the test itself checked.
 */
export async function startTestGateway(options: Partial<GatewayOptions> = {}): Promise<Gateway> {
  const shared = options.db ?? db;
  const recorder = new ActionRecorder();
  const detach = recorder.attach(shared.client.middlewareStack as never);
  const gateway = await startGateway({
    config,
    db: shared,
    port: 0,
    logRequests: false,
    authCacheTtlSeconds: 0,
    ...options,
  });
  return {
    ...gateway,
    close: async () => {
      detach();
      await gateway.close();
      const ungranted = Object.entries(grantedActions)
        .map(([name, granted]) => ({ name, beyond: recorder.beyond(name, granted) }))
        .filter((entry) => entry.beyond.length > 0);
      if (ungranted.length > 0)
        throw new Error(`DynamoDB actions beyond the route's grant: ${JSON.stringify(ungranted)}`);
    },
  };
}

export function formBody(form: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) {
    for (const item of [value].flat()) params.append(key, item);
  }
  return params.toString();
}

export async function send(
  url: string,
  method: string,
  { headers = {}, body }: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<Reply> {
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const reply = { status: response.status, headers: response.headers, body: parsed, text };
  // Every response must be one the OpenAPI document allows (status, body, headers).
  checkResponse(method, url, reply);
  return reply;
}

/** A new owner with a fresh key, and a client that sends it. */
export async function newClient(gateway: Gateway, owner = `owner-${randomUUID()}`): Promise<Client> {
  const { key } = await createApiKey(db, owner, 'test');
  return clientFor(gateway, key, owner);
}

export function clientFor(gateway: Gateway, key: string, owner = ''): Client {
  const request: Client['request'] = (method, path, options = {}) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${key}`,
      ...options.headers,
    };
    let body = options.body;
    if (options.form) {
      headers['Content-Type'] ??= 'application/x-www-form-urlencoded';
      body = formBody(options.form);
    } else if (options.json !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    return send(`${gateway.url}${path}`, method, { headers, body });
  };
  return {
    key,
    owner,
    request,
    get: (path, query) =>
      request(
        'GET',
        query ? `${path}?${formBody(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])))}` : path,
      ),
    post: (path, form) => request('POST', path, { form }),
    patch: (path, form) => request('PATCH', path, { form }),
    put: (path, form) => request('PUT', path, { form }),
    delete: (path) => request('DELETE', path),
  };
}
