/**
 * The fuzzer's requests: each answer is read, counted, and judged against the document on the spot (a 5xx, or
 * any status, header or body the document does not allow, fails the case whatever the request was).
 */
import type { Encoding } from '#test/support/fuzz/operations.ts';
import { ContractError, checkResponse } from '#test/support/openapi.ts';

export type Reply = { status: number; headers: Headers; body: unknown; text: string };

/** A case that fails: reported with its request, while the run goes on (any other error stops the run). */
export class CaseFailure extends Error {}

export type SendOptions = { body?: string; type?: string; headers?: Record<string, string> };

/** Sends a request as the owner of `key` (none: without a key), to a path under the API's base URL. */
export type Send = (key: string | undefined, method: string, path: string, init?: SendOptions) => Promise<Reply>;

/** Requests to the API at `apiUrl`; `onAnswer` is told of every answer, before it is judged. */
export function sender(apiUrl: string, onAnswer: () => void): Send {
  return async (key, method, path, init = {}) => {
    const url = `${apiUrl}${path}`;
    const headers = {
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
      ...(init.type ? { 'Content-Type': init.type } : {}),
      ...init.headers,
    };
    const response = await fetch(url, { method, headers, body: init.body });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const reply = { status: response.status, headers: response.headers, body, text };
    onAnswer();
    if (reply.status >= 500) throw new CaseFailure(`${method} ${path} answered ${reply.status}: ${text.slice(0, 300)}`);
    try {
      checkResponse(method, url, reply);
    } catch (error) {
      if (error instanceof ContractError) throw new CaseFailure(error.message);
      throw error;
    }
    return reply;
  };
}

/** A body as its media type sends it; a string (a malformed body) as it is. */
export const encode = (encoding: Encoding, body: Record<string, unknown> | string) => {
  if (typeof body === 'string') return body;
  if (encoding === 'json') return JSON.stringify(body);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) for (const item of [value].flat()) params.append(key, String(item));
  return params.toString();
};
