/**
 * Section 8, the edge. Three measurements:
 *  - the CloudFront Function's time per request (functions/edge/viewer-request.js), loaded as the local edge
 *    loads it (`loadEdgeFunction`: the same source in the same sandbox) over a local key-value store holding
 *    1,000 hosts, for representative requests, against CloudFront Functions' time budget;
 *  - the sync lag: from an API write that changes what a host serves (verify, update of its index page,
 *    delete) to the local edge answering the new state, end to end against the local stack of `npm start`
 *    (infra/local/start.ts in a process of its own: gateway, edge, and the follower of the change feed), with
 *    domains verified against a DNS server on 127.0.0.1 (test/support/dns-server.ts);
 *  - the time `syncHost` itself takes against a local store, per kind of change.
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME (a table of its own: the follower scans it) and CURSOR_SECRET.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '#infra/bundling.ts';
import { type EdgeRequest, type EdgeResponse, type EdgeSettings, loadEdgeFunction } from '#infra/edge-function.ts';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import type { LocalStack } from '#infra/local/settings.ts';
import { loadConfig } from '#lib/config.ts';
import { edgeSyncDeps } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import type { EdgeRecord } from '#lib/edge/record.ts';
import { type SyncOutcome, syncHost } from '#lib/edge/sync.ts';
import { startDnsServer } from '#test/support/dns-server.ts';
import { benchDataDir, median, percentile, progress, quick, round, writeResult } from './support.ts';

/**
 * CloudFront Functions' time budget per invocation. AWS documents the limit as compute utilization, the time
 * taken as a percentage of "the maximum allowed time", without giving that time; 1 ms is the figure commonly
 * cited for it (and the runtime is described as "submillisecond").
 */
const BUDGET_MS = 1;
/** Hosts in the store the function reads: a store of some size, not a handful of keys. */
const HOSTS = 1_000;
/** Function timing: unmeasured calls per case first, then rounds of one batch per case, cases interleaved. */
const WARM_UP = quick ? 500 : 5_000;
const ROUNDS = quick ? 20 : 300;
const BATCH = 100;
/** Sync lag: changes per kind, the edge polled this often after each write, given up on after this long. */
const CHANGES = quick ? 5 : 30;
const POLL_MS = 10;
const GIVE_UP_MS = 5_000;
/** The bound, and the follower's poll of the feed heads (`intervalMs` in infra/local/start.ts). */
const BOUND_MS = 2_000;
const FEED_INTERVAL_MS = 500;
/** syncHost timing: domains taken through verify, re-sync, update and delete. */
const SYNC_DOMAINS = quick ? 5 : 30;

export type EdgeCase = {
  name: string;
  method: string;
  host: string;
  uri: string;
  status: number;
  samples: number;
  /** Per request, timed one by one (process.hrtime.bigint), in µs. */
  medianUs: number;
  p99Us: number;
  /** Per request from batches timed as a whole (no timer inside), median over the batches, in µs. */
  batchMeanUs: number;
};

export type LagKind = {
  kind: 'verify' | 'update' | 'delete';
  /** What the edge answers once the change is served. */
  expected: string;
  changes: number;
  /** Changes the edge served within the give-up time (the others count as not served). */
  served: number;
  withinBound: number;
  /** From the API's answer to the write to the first edge answer showing the new state, in ms. */
  lagMs: { median: number; p95: number; max: number; min: number };
  /** The write's own latency through the local gateway, median, ms. */
  writeMs: number;
};

export type SyncKind = {
  kind: string;
  outcome: SyncOutcome;
  n: number;
  medianMs: number;
  p95Ms: number;
  /** The part spent looking the domain up in DynamoDB (`activeDomainByName`), median, ms. */
  lookupMedianMs: number;
};

export type EdgeSection = {
  node: string;
  budgetMs: number;
  function: {
    hosts: number;
    warmUp: number;
    rounds: number;
    batch: number;
    /** A back-to-back pair of process.hrtime.bigint() calls, median, ns: included in the per-request figures. */
    timerOverheadNs: number;
    cases: EdgeCase[];
  };
  lag: {
    pollMs: number;
    giveUpMs: number;
    boundMs: number;
    feedIntervalMs: number;
    kinds: LagKind[];
  };
  sync: { domains: number; kinds: SyncKind[] };
  loadAverage: number[];
  durationSeconds: number;
};

// ---------- the function's time per request ----------

const SETTINGS: EdgeSettings = {
  defaultIndexPage: '',
  defaultNotFoundPage: 'https://stage.example/missing',
  cacheSeconds: 60,
};

async function put(store: LocalKeyValueStore, host: string, record: EdgeRecord) {
  const { etag } = await store.read(host);
  await store.put(host, record, etag);
}

/** The store: HOSTS active hosts (every other one with its own not-found page), a punycode one, a tombstone. */
async function filledStore(): Promise<LocalKeyValueStore> {
  const store = new LocalKeyValueStore();
  const t = Date.now();
  for (let index = 0; index < HOSTS; index++) {
    await put(store, `site-${index}.example.com`, {
      s: 'active',
      i: `https://www.example.org/${index}/`,
      n: index % 2 === 0 ? `https://www.example.org/${index}/missing` : '',
      t,
    });
  }
  await put(store, 'xn--bcher-kva.example', { s: 'active', i: 'https://shop.example/', n: '', t });
  await put(store, 'gone.example.com', { s: 'none', t });
  return store;
}

/** A viewer-request event as CloudFront builds it (structure 1.0), with a browser's usual headers. */
const viewerRequest = (method: string, host: string, uri: string): { request: EdgeRequest } => ({
  request: {
    method,
    uri,
    headers: {
      host: { value: host },
      'user-agent': { value: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' },
      accept: { value: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      'accept-language': { value: 'en-US,en;q=0.5' },
    },
  },
});

const cases = [
  { name: 'active host, GET /', method: 'GET', host: 'site-500.example.com', uri: '/', status: 302 },
  { name: 'active host, other path', method: 'GET', host: 'site-500.example.com', uri: '/pricing/plans', status: 302 },
  { name: 'active host, HEAD /', method: 'HEAD', host: 'site-500.example.com', uri: '/', status: 302 },
  { name: 'upper case, port, trailing dot', method: 'GET', host: 'SITE-500.EXAMPLE.COM.:8443', uri: '/', status: 302 },
  { name: 'punycode host', method: 'GET', host: 'xn--bcher-kva.example', uri: '/', status: 302 },
  { name: 'unknown host (404 page)', method: 'GET', host: 'nobody.example.net', uri: '/', status: 404 },
  { name: 'deleted host (tombstone, 404)', method: 'GET', host: 'gone.example.com', uri: '/', status: 404 },
  { name: 'POST (405)', method: 'POST', host: 'site-500.example.com', uri: '/', status: 405 },
] as const;

function timerOverheadNs(): number {
  const samples: number[] = [];
  for (let index = 0; index < 10_000; index++) {
    const start = process.hrtime.bigint();
    samples.push(Number(process.hrtime.bigint() - start));
  }
  return median(samples);
}

async function functionTime(): Promise<EdgeSection['function']> {
  const handler = loadEdgeFunction(SETTINGS, await filledStore());
  const events = cases.map((c) => viewerRequest(c.method, c.host, c.uri));
  // Every case answers what it stands for, or its time means nothing.
  for (const [index, c] of cases.entries()) {
    const response: EdgeResponse = await handler(events[index] as { request: EdgeRequest });
    if (response.statusCode !== c.status)
      throw new Error(`${c.name}: answered ${response.statusCode}, not ${c.status}`);
  }
  for (let index = 0; index < WARM_UP; index++) for (const event of events) await handler(event);
  progress(`edge function: ${cases.length} cases x ${ROUNDS} rounds x ${BATCH} requests, one by one and in batches`);
  const one = cases.map(() => [] as number[]);
  const batches = cases.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) {
    // Rotated each round, so that no case always opens the round.
    for (let k = 0; k < cases.length; k++) {
      const index = (k + r) % cases.length;
      const event = events[index] as { request: EdgeRequest };
      const samples = one[index] as number[];
      for (let i = 0; i < BATCH; i++) {
        const start = process.hrtime.bigint();
        await handler(event);
        samples.push(Number(process.hrtime.bigint() - start));
      }
      const start = process.hrtime.bigint();
      for (let i = 0; i < BATCH; i++) await handler(event);
      batches[index]?.push(Number(process.hrtime.bigint() - start) / BATCH);
    }
  }
  const us = (ns: number) => round(ns / 1000, 3);
  return {
    hosts: HOSTS,
    warmUp: WARM_UP,
    rounds: ROUNDS,
    batch: BATCH,
    timerOverheadNs: timerOverheadNs(),
    cases: cases.map((c, index) => ({
      ...c,
      samples: one[index]?.length ?? 0,
      medianUs: us(median(one[index] ?? [])),
      p99Us: us(percentile(one[index] ?? [], 99)),
      batchMeanUs: us(median(batches[index] ?? [])),
    })),
  };
}

// ---------- the local stack ----------

type Stack = { api: string; edge: string; key: string; output: () => string; stop: () => Promise<void> };

/** `npm start` (infra/local/start.ts) in its own process on free ports, over this section's DynamoDB table. */
async function startStack(dnsAddress: string): Promise<Stack> {
  const dataDir = join(benchDataDir, quick ? 'quick' : '', 'edge-stack');
  const stackFile = join(dataDir, 'local-stack.json');
  rmSync(stackFile, { force: true });
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'infra/local/start.ts')], {
    cwd: projectRoot,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      EDGE_PORT: '0',
      DNS_RESOLVER: dnsAddress,
      // The CNAME target the domain routes name; any host name does locally.
      EDGE_HOSTNAME: process.env.EDGE_HOSTNAME ?? 'edge.localhost',
      // The bench writes faster than the development key's limit allows.
      RATE_LIMIT_PER_MINUTE: '0',
      DEFAULT_INDEX_PAGE: '',
      DEFAULT_NOT_FOUND_PAGE: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept for the error message only: the gateway's request log and the follower's errors.
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let done = false;
  void exited.then(() => {
    done = true;
  });
  const deadline = Date.now() + 60_000;
  let stack: LocalStack | null = null;
  while (!stack) {
    if (done) throw new Error(`npm start exited before it answered:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`npm start did not answer within 60 s:\n${output}`);
    }
    await sleep(100);
    if (!existsSync(stackFile)) continue;
    const written = JSON.parse(readFileSync(stackFile, 'utf8')) as LocalStack;
    if (written.pid === child.pid && written.edgeUrl) stack = written;
  }
  return {
    api: stack.apiUrl,
    edge: stack.edgeUrl as string,
    key: readFileSync(stack.keyFile, 'utf8').trim(),
    output: () => output,
    stop: async () => {
      if (done) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

type Reply = { status: number; data: Record<string, unknown> };

function apiClient(stack: Stack) {
  return async (method: string, path: string, form?: Record<string, string>): Promise<Reply> => {
    const response = await fetch(`${stack.api}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${stack.key}`,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const text = await response.text();
    const body = text ? (JSON.parse(text) as { data?: Record<string, unknown> }) : {};
    if (response.status >= 400) {
      throw new Error(
        `${method} ${path}: ${response.status} ${text.slice(0, 300)}\nnpm start said:\n${stack.output()}`,
      );
    }
    return { status: response.status, data: body.data ?? {} };
  };
}

type Answer = { status: number; location: string | null };

/** A visit to the edge as a browser at `host` makes it (node:http: fetch does not let one set Host). */
function visitor(edgeUrl: string) {
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

// ---------- sync lag ----------

type Change = { lagMs: number | null; writeMs: number };

async function syncLag(stack: Stack, dns: Awaited<ReturnType<typeof startDnsServer>>): Promise<LagKind[]> {
  const api = apiClient(stack);
  const { visit, close } = visitor(stack.edge);
  const results: Record<LagKind['kind'], Change[]> = { verify: [], update: [], delete: [] };

  /** Writes, then polls the edge every POLL_MS until it answers as `served` says (or GIVE_UP_MS). */
  async function measure(write: () => Promise<unknown>, host: string, served: (answer: Answer) => boolean) {
    // A random pause first, so writes do not fall at one phase of the follower's 500 ms poll.
    await sleep(Math.random() * FEED_INTERVAL_MS);
    const sent = performance.now();
    await write();
    const answered = performance.now();
    for (;;) {
      const at = performance.now();
      const answer = await visit(host);
      const now = performance.now();
      if (served(answer)) return { lagMs: now - answered, writeMs: answered - sent };
      if (now - answered > GIVE_UP_MS) return { lagMs: null, writeMs: answered - sent };
      await sleep(Math.max(0, at + POLL_MS - performance.now()));
    }
  }

  try {
    for (let index = 1; index <= CHANGES; index++) {
      progress(`edge sync lag: change set ${index}/${CHANGES} (verify, update, delete)`);
      const name = `lag-${index}-${randomUUID().slice(0, 8)}.example.com`;
      const one = `https://www.example.org/${index}/one`;
      const two = `https://www.example.org/${index}/two`;
      const stored = await api('POST', '/domains', { name, index_page: one });
      const id = String(stored.data.id);
      const record = stored.data.verification as { name: string; value: string };
      dns.setTxt(record.name, [record.value]);
      const pending = await visit(name);
      if (pending.status !== 404) throw new Error(`${name}: a pending domain answered ${pending.status}`);
      results.verify.push(
        await measure(
          () => api('POST', `/domains/${id}/verify`),
          name,
          (a) => a.status === 302 && a.location === one,
        ),
      );
      results.update.push(
        await measure(
          () => api('PATCH', `/domains/${id}`, { index_page: two }),
          name,
          (a) => a.status === 302 && a.location === two,
        ),
      );
      results.delete.push(
        await measure(
          () => api('DELETE', `/domains/${id}`),
          name,
          (a) => a.status === 404,
        ),
      );
      dns.clear(record.name);
    }
  } finally {
    close();
  }
  const expected = { verify: '302 to the index page', update: '302 to the new index page', delete: '404' };
  return (Object.keys(results) as LagKind['kind'][]).map((kind) => {
    const changes = results[kind];
    const lags = changes.flatMap((change) => (change.lagMs === null ? [] : [change.lagMs]));
    return {
      kind,
      expected: expected[kind],
      changes: changes.length,
      served: lags.length,
      withinBound: lags.filter((lag) => lag <= BOUND_MS).length,
      lagMs: {
        median: round(median(lags), 1),
        p95: round(percentile(lags, 95), 1),
        max: round(Math.max(...lags), 1),
        min: round(Math.min(...lags), 1),
      },
      writeMs: round(median(changes.map((change) => change.writeMs)), 1),
    };
  });
}

// ---------- syncHost against a local store ----------

async function syncTime(stack: Stack, dns: Awaited<ReturnType<typeof startDnsServer>>): Promise<SyncKind[]> {
  const api = apiClient(stack);
  const db = createDb(loadConfig(process.env));
  const store = new LocalKeyValueStore();
  let lookupMs = 0;
  const deps = {
    store,
    activeDomain: async (host: string) => {
      const start = performance.now();
      const domain = await edgeSyncDeps(db).activeDomain(host);
      lookupMs = performance.now() - start;
      return domain;
    },
  };
  const samples = new Map<string, { outcome: SyncOutcome; ms: number; lookupMs: number }[]>();
  async function timed(kind: string, host: string) {
    const start = performance.now();
    const outcome = await syncHost(deps, host);
    const ms = performance.now() - start;
    samples.set(kind, [...(samples.get(kind) ?? []), { outcome, ms, lookupMs }]);
  }
  try {
    // Unmeasured: the client's first connections and the code paths' first runs.
    for (let index = 0; index < 5; index++) await syncHost(deps, `warm-${index}.example.com`);
    progress(`edge syncHost: ${SYNC_DOMAINS} domains through verify, re-sync, update and delete`);
    for (let index = 1; index <= SYNC_DOMAINS; index++) {
      const name = `sync-${index}-${randomUUID().slice(0, 8)}.example.com`;
      const stored = await api('POST', '/domains', { name, index_page: `https://www.example.org/${index}/one` });
      const id = String(stored.data.id);
      const record = stored.data.verification as { name: string; value: string };
      dns.setTxt(record.name, [record.value]);
      await api('POST', `/domains/${id}/verify`);
      await timed('verify', name);
      await timed('re-sync, nothing changed', name);
      await api('PATCH', `/domains/${id}`, { index_page: `https://www.example.org/${index}/two` });
      await timed('update', name);
      await api('DELETE', `/domains/${id}`);
      await timed('delete', name);
      dns.clear(record.name);
    }
  } finally {
    db.client.destroy();
  }
  return [...samples].map(([kind, list]) => {
    const outcomes = [...new Set(list.map((sample) => sample.outcome))];
    if (outcomes.length !== 1) throw new Error(`syncHost (${kind}) answered ${outcomes.join(' and ')}`);
    return {
      kind,
      outcome: outcomes[0] as SyncOutcome,
      n: list.length,
      medianMs: round(median(list.map((sample) => sample.ms)), 3),
      p95Ms: round(
        percentile(
          list.map((sample) => sample.ms),
          95,
        ),
        3,
      ),
      lookupMedianMs: round(median(list.map((sample) => sample.lookupMs)), 3),
    };
  });
}

async function main() {
  const started = Date.now();
  const loadAverage = loadavg().map((value) => round(value, 2));
  // First, before the stack starts: the function's timing on a quiet process.
  const fn = await functionTime();
  const dns = await startDnsServer();
  let stack: Stack | undefined;
  try {
    progress('edge: starting the local stack (npm start) against the bench DynamoDB Local');
    stack = await startStack(dns.address);
    const kinds = await syncLag(stack, dns);
    const sync = await syncTime(stack, dns);
    const result: EdgeSection = {
      node: process.version,
      budgetMs: BUDGET_MS,
      function: fn,
      lag: { pollMs: POLL_MS, giveUpMs: GIVE_UP_MS, boundMs: BOUND_MS, feedIntervalMs: FEED_INTERVAL_MS, kinds },
      sync: { domains: SYNC_DOMAINS, kinds: sync },
      loadAverage,
      durationSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResult(result);
  } finally {
    await stack?.stop();
    await dns.close();
  }
}

await main();
