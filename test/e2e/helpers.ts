/**
 * Helpers shared by the end-to-end suites. Every reply they receive goes through `assertJson`, so the rule
 * "every response, errors included, is JSON" (but a 304, which has no body) is checked on every request.
 */
import { expect } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { type Client, clientFor, newClient as newOwnerClient, type Reply, send } from '#test/support/http.ts';

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const NOT_FOUND = { message: 'Resource not found.', status: 404 };
export const UNAUTHENTICATED = { message: 'Unauthenticated.', status: 401 };
export const TAKEN = 'The name has already been taken.';

export function assertJson(reply: Reply): Reply {
  // A 304 has no body at all (RFC 9110); the contract check (`test/support/openapi.ts`) makes sure it is empty.
  if (reply.status === 304) return reply;
  expect(reply.headers.get('content-type'), `${reply.status} ${reply.text}`).toBe('application/json');
  expect(reply.body, `not JSON: ${reply.text}`).toBeDefined();
  return reply;
}

/** A client whose every reply is checked to be JSON. */
export function checked(client: Client): Client {
  const wrap =
    <Args extends unknown[]>(call: (...args: Args) => Promise<Reply>) =>
    async (...args: Args) =>
      assertJson(await call(...args));
  return {
    ...client,
    request: wrap(client.request),
    get: wrap(client.get),
    post: wrap(client.post),
    put: wrap(client.put),
    patch: wrap(client.patch),
    delete: wrap(client.delete),
  };
}

/** A fresh owner with its own key: tests isolate by owner. */
export const newClient = async (gateway: Gateway) => checked(await newOwnerClient(gateway));

export const keyClient = (gateway: Gateway, key: string) => checked(clientFor(gateway, key));

export const sendJson = async (...args: Parameters<typeof send>) => assertJson(await send(...args));

/** The 422 body for one field and one message. */
export const invalid = (field: string, message: string) => ({ message, errors: { [field]: [message] }, status: 422 });
