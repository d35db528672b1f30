/**
 * What the reliability suites share: the consistency assertion, the JSON error contract, and fault
 * injection through SDK middleware on the shared document client (the very client the handlers use).
 */
import type { FinalizeHandlerArguments, MetadataBearer } from '@smithy/types';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { type CheckOptions, checkConsistency, formatViolations } from '#test/support/consistency.ts';
import { db } from '#test/support/database.ts';
import type { Reply } from '#test/support/http.ts';

export const TAKEN = 'The name has already been taken.';
export const NOT_FOUND = { message: 'Resource not found.', status: 404 };
export const UNAUTHENTICATED = { message: 'Unauthenticated.', status: 401 };

/** Asserts that the owners' data is consistent (see `test/support/consistency.ts`), listing every violation found. */
export async function expectConsistent(owners: string | string[], options: CheckOptions = {}): Promise<void> {
  const reports = await Promise.all([owners].flat().map((owner) => checkConsistency(db, owner, options)));
  expect(reports.flatMap(formatViolations)).toEqual([]);
}

/** Every error answer is JSON with a message and the status repeated, and nothing else leaks (no stack). */
export function expectErrorContract(reply: Reply, status?: number): void {
  const context = `${reply.status} ${reply.text.slice(0, 300)}`;
  expect(reply.headers.get('content-type'), context).toBe('application/json');
  expect(reply.body, context).toMatchObject({ message: expect.any(String), status: reply.status });
  expect(reply.text, context).not.toMatch(/\bat .+\.(ts|js):\d+|stack/i);
  if (status !== undefined) expect(reply.status, context).toBe(status);
}

export const countBy = (values: readonly (number | string)[]) =>
  values.reduce<Record<string, number>>((counts, value) => {
    counts[value] = (counts[value] ?? 0) + 1;
    return counts;
  }, {});

/** One DynamoDB request as the wire sees it: the operation and its JSON body. */
export type WireCall = { operation: string; body: Record<string, unknown> };

function wireCall(args: FinalizeHandlerArguments<object>): WireCall {
  const request = args.request as { headers?: Record<string, string>; body?: unknown };
  const target = request.headers?.['x-amz-target'] ?? '';
  let body: Record<string, unknown> = {};
  try {
    // The SDK serializes to bytes (a Uint8Array); older versions used a string.
    const raw = request.body instanceof Uint8Array ? new TextDecoder().decode(request.body) : request.body;
    body = typeof raw === 'string' ? JSON.parse(raw) : {};
  } catch {
    // Not JSON: not a DynamoDB call.
  }
  return { operation: target.split('.').at(-1) ?? '', body };
}

/** What happens to the matching DynamoDB calls, attempt by attempt (inside the SDK's retry loop). */
export type FaultPlan = {
  /** Which calls the plan applies to; only these are counted. */
  when: (call: WireCall) => boolean;
  /** An error to fail this attempt with before it reaches DynamoDB (the SDK may retry it). */
  before?: (attempt: number, call: WireCall) => Error | undefined;
  /** Work done before this attempt goes on to DynamoDB: another client's write in between, say. */
  meanwhile?: (attempt: number, call: WireCall) => Promise<unknown> | undefined;
  /** An error to throw after DynamoDB has done the work: the answer is lost on the way back. */
  after?: (attempt: number, call: WireCall) => Error | undefined;
  /** Send the matching attempts to this port on 127.0.0.1 instead (a server that never answers, say). */
  redirectToPort?: number;
};

export type Injection = {
  /** Matching attempts seen, faulted or not. */
  readonly attempts: number;
  remove(): void;
};

let injections = 0;

/** Adds a fault to the shared client; always `remove()` it (afterEach) so tests stay independent. */
export function injectFault(plan: FaultPlan): Injection {
  const name = `reliability-fault-${++injections}`;
  let attempts = 0;
  db.client.middlewareStack.add(
    (next) => async (args) => {
      const call = wireCall(args as FinalizeHandlerArguments<object>);
      if (!plan.when(call)) return next(args);
      const attempt = ++attempts;
      const early = plan.before?.(attempt, call);
      if (early) throw early;
      await plan.meanwhile?.(attempt, call);
      if (plan.redirectToPort !== undefined) {
        Object.assign(args.request as object, { hostname: '127.0.0.1', port: plan.redirectToPort });
      }
      const result = await next(args);
      const late = plan.after?.(attempt, call);
      if (late) throw late;
      return result;
    },
    // The deserialize step runs once per attempt, after the retry middleware (finalizeRequest step).
    { step: 'deserialize', priority: 'high', name },
  );
  return {
    get attempts() {
      return attempts;
    },
    remove: () => void db.client.middlewareStack.remove(name),
  };
}

/** A service error as the SDK would deserialize it. */
export function serviceError<E extends Error & MetadataBearer>(
  ErrorClass: new (options: { message: string; $metadata: MetadataBearer['$metadata'] }) => E,
  httpStatusCode: number,
): E {
  return new ErrorClass({ message: 'Injected by the reliability suite', $metadata: { httpStatusCode } });
}

/** The pk of the item a single-item call addresses (GetItem, UpdateItem, ...), if any. */
export function keyOfCall(call: WireCall): string | undefined {
  const key = call.body.Key as { pk?: { S?: string } } | undefined;
  return key?.pk?.S;
}

/** Calls that address this owner's data (its partition, its guards or its counters). */
export const touches = (owner: string, operation?: string) => (call: WireCall) =>
  (operation === undefined || call.operation === operation) && JSON.stringify(call.body).includes(`OWNER#${owner}`);

/** The SDK's retry quota (a token bucket per client, 500 tokens, drained by every retry). */
export const RETRY_QUOTA = 500;

type RetryStrategyState = { capacity?: number; getCapacity?: () => number };

async function retryStrategy(): Promise<RetryStrategyState> {
  const provider = db.client.config.retryStrategy as unknown as () => Promise<RetryStrategyState>;
  return provider();
}

/** What is left of the retry quota. */
export const retryQuota = async () => (await retryStrategy()).getCapacity?.() ?? Number.NaN;

/** Refills the retry quota, so each fault test sees the SDK's policy from a fresh (cold-started) client. */
export async function refillRetryQuota(): Promise<void> {
  const strategy = await retryStrategy();
  if (typeof strategy.capacity !== 'number') throw new Error('The SDK retry strategy has no capacity to refill');
  strategy.capacity = RETRY_QUOTA;
}

/** What a fault suite's test notes: the fault it injected, and the owners and domain names to check after it. */
export type FaultSuite = { injection: Injection | undefined; checked: { owners: string[]; domains: string[] } };

/**
 * The hooks of a suite that injects faults: each test starts with a full SDK retry quota and nothing to check;
 * after it, its fault is removed and the owners and domain names it noted are checked for consistency. The
 * warning each provoked 503 logs (`Dependency unavailable`) is hidden; any other is kept.
 */
export function faultSuite(): FaultSuite {
  const suite: FaultSuite = { injection: undefined, checked: { owners: [], domains: [] } };
  beforeAll(() => {
    const warn = console.warn.bind(console);
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      if ((args[0] as { message?: unknown } | undefined)?.message !== 'Dependency unavailable') warn(...args);
    });
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });
  beforeEach(async () => {
    suite.checked = { owners: [], domains: [] };
    await refillRetryQuota();
  });
  afterEach(async () => {
    suite.injection?.remove();
    suite.injection = undefined;
    await expectConsistent(suite.checked.owners, { domainNames: suite.checked.domains });
  });
  return suite;
}
