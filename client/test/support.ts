/**
 * The client's tests run against the local stack: the test gateway over DynamoDB Local (a table of this test
 * file's own), a fresh owner and key per test, and a `fetch` that checks every live answer against the OpenAPI
 * document, as the e2e suites' client does. A contract violation is recorded rather than thrown (a throwing
 * `fetch` is a network failure to the client, which would retry it): `afterEach` fails the test on any.
 */
import { afterEach, expect } from 'vitest';
import type { Gateway } from '../../infra/local/gateway.ts';
import { newClient } from '../../test/support/http.ts';
import { checkResponse } from '../../test/support/openapi.ts';
import { type Client, type ClientOptions, createClient } from '../src/index.ts';

const violations: string[] = [];
afterEach(() => {
  const found = violations.splice(0);
  expect(found, 'answers the OpenAPI document does not allow').toEqual([]);
});

/** `globalThis.fetch`, with every answer checked against the document. */
export async function checkedFetch(request: Request): Promise<Response> {
  const { method, url } = request;
  const response = await fetch(request);
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  try {
    checkResponse(method, url, { status: response.status, headers: response.headers, body, text });
  } catch (error) {
    violations.push((error as Error).message);
  }
  return response;
}

export type Fetch = (request: Request) => Promise<Response>;

type Options = Partial<Omit<ClientOptions, 'baseUrl' | 'apiKey'>>;

/** A client for a new owner of the gateway; `fetch` wraps the checked fetch (to drop, fake or count answers). */
export async function clientOf(gateway: Gateway, options: Options = {}): Promise<{ api: Client; key: string }> {
  const { key } = await newClient(gateway);
  return { api: clientWithKey(gateway, key, options), key };
}

/** A client of the gateway with this key. */
export function clientWithKey(gateway: Gateway, apiKey: string, { fetch = checkedFetch, ...options }: Options = {}) {
  return createClient({ baseUrl: `${gateway.url}/api/v1`, apiKey, fetch, ...options });
}

/** Collects an async iterable. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

/** The rejection of `promise` (fails when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the call to fail, and it succeeded');
}

/** A name unique to this run. */
export const unique = (label: string) => `${label} ${crypto.randomUUID().slice(0, 8)}`;
