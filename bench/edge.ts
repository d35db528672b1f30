/**
 * Section 8, the edge. Five measurements:
 *  - the CloudFront Function's time per request (functions/edge/viewer-request.js), loaded as the local edge
 *    loads it (`loadEdgeFunction`: the same source in the same sandbox) over a local key-value store holding
 *    1,000 hosts, for representative requests, against CloudFront Functions' time budget;
 *  - the sync lag: from an API write that changes what a host serves (verify, update of its index page,
 *    delete) to the local edge answering the new state, end to end against the local stack of `npm start`
 *    (infra/local/start.ts in a process of its own: gateway, local CloudFront and edge, and the follower of the
 *    change feed), with each domain's TXT record and its CNAME to the stack's edge host name published in a DNS
 *    server on 127.0.0.1 (test/support/dns-server.ts);
 *  - the time from a domain's CNAME published to its `serving` being `active`, through the same stack, by the
 *    owner's "check now" (`POST /domains/{id}/verify`) and by the re-check (`runDueChecks`, run here against the
 *    stack's table as the schedule would run it once the domain is due);
 *  - the time `syncHost` itself takes per kind of event, over the stage's edge on a local CloudFront
 *    (`startStageEdge`: the key-value store and the tenants through the SDK clients, as the sync function reaches
 *    CloudFront), with the CloudFront calls and DNS queries each kind makes.
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
import type { CloudFrontCall } from '#infra/local/cloudfront/index.ts';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import type { LocalStack } from '#infra/local/settings.ts';
import { startStageEdge } from '#infra/local/stage-edge.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { dueDomains } from '#lib/domains/data/checks.ts';
import {
  destroyDomain,
  edgeSyncDeps,
  recheckDomain,
  showDomain,
  storeDomain,
  updateDomain,
  verifyDomain,
} from '#lib/domains/data/domains.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { DUE_AHEAD_MS, runDueChecks } from '#lib/domains/recheck.ts';
import { FAST_RECHECK_INTERVAL_MS } from '#lib/domains/rules/dns-records.ts';
import { verificationName } from '#lib/domains/rules/verification.ts';
import type { EdgeRecord } from '#lib/edge/rules/record.ts';
import type { ServingState } from '#lib/edge/rules/serving.ts';
import { type SyncDeps, type SyncOutcome, syncHost } from '#lib/edge/sync.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
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
/** CNAME to active: domains per path; the API and the edge asked this often (a GET goes through the gateway). */
const ACTIVATIONS = quick ? 5 : 30;
const ACTIVE_POLL_MS = 20;
/** syncHost timing: domains taken through each kind of event (two domains each), after a few unmeasured. */
const SYNC_DOMAINS = quick ? 5 : 30;
const SYNC_WARM_UP = 3;
/**
 * The host a served domain's CNAME names: the stack's `EDGE_HOSTNAME` (bench/run.ts sets it for every section),
 * the routing endpoint of the local CloudFront's connection group.
 */
const EDGE_HOSTNAME = process.env.EDGE_HOSTNAME || 'edge.localhost';

export type EdgeSpread = { median: number; p95: number; max: number; min: number };

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
  lagMs: EdgeSpread;
  /** The write's own latency through the local gateway, median, ms. */
  writeMs: number;
};

/** From a waiting domain's CNAME published to `serving: active`, by one path. */
export type ActivationPath = {
  path: 'check now' | 're-check';
  domains: number;
  /** Domains the API showed `active` within the give-up time. */
  activated: number;
  /** From the CNAME's publication to the first GET showing `serving: active`, ms. */
  activeMs: EdgeSpread;
  /** From the CNAME's publication to the first edge answer redirecting to the index page, ms. */
  servedMs: EdgeSpread;
  /** What set it off, median, ms: the verify request's answer, or the re-check run (due domains, checks). */
  triggerMs: number;
  /** What `POST /verify` answered as `serving`, or what the re-check's run left stored, for each domain. */
  servingAfterTrigger: string[];
  /** The re-check: domains each run checked (1: the domain measured alone was due). */
  checkedPerRun?: number[];
  /**
   * The re-check: a run before the CNAME (nothing new: only the next check moved) sets the domain's next check
   * this long after the latest due time the run one interval later takes (its start plus `DUE_AHEAD_MS`), in ms
   * (positive: that run finds it not yet due; negative: it takes it).
   */
  nextDueAfterNextRunMs?: EdgeSpread;
};

export type SyncKind = {
  kind: string;
  outcome: SyncOutcome;
  /** What the tenants' `ensure` found (the domain's serving after the sync); `none` for a host no longer served. */
  serving: ServingState | 'none';
  n: number;
  medianMs: number;
  p95Ms: number;
  /** The part spent looking the domain up in DynamoDB (`activeDomainByName`), median, ms. */
  lookupMedianMs: number;
  /** The key-value store's read and conditional write (SigV4A-signed calls), median, ms. */
  storeMedianMs: number;
  /** The tenant's part (`ensure`/`remove`: CloudFront control-plane calls, the DNS check), median, ms. */
  tenantMedianMs: number;
  /** Recording the domain's new serving state (`recordServing`, a DynamoDB read and write), median, ms. */
  recordMedianMs: number;
  /** Syncs that recorded a new serving state. */
  recorded: number;
  /** CloudFront calls per sync (the KeyValueStore's and the control plane's), and which, in order. */
  cloudFrontCalls: number;
  operations: string[];
  /** DNS queries for the host per sync: the sync's own check, and the local CloudFront's ownership check. */
  dnsQueries: number;
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
  activation: {
    pollMs: number;
    giveUpMs: number;
    feedIntervalMs: number;
    recheckIntervalMs: number;
    paths: ActivationPath[];
  };
  sync: { domains: number; warmUp: number; kinds: SyncKind[] };
  edgeHostname: string;
  loadAverage: number[];
  /** The load average when the section ended. */
  loadAverageAfter: number[];
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
      // The CNAME target the domains' records name, and the local CloudFront's connection group's routing endpoint.
      EDGE_HOSTNAME,
      // The bench writes faster than the development key's limit allows.
      RATE_LIMIT_PER_MINUTE: '0',
      // The stack's own timer (re-check and sweep) stays out of the way: the bench runs the re-check itself.
      DOMAIN_CHECK_INTERVAL_SECONDS: String(24 * 3_600),
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

const spreadOf = (values: readonly number[]): EdgeSpread => ({
  median: round(median(values), 1),
  p95: round(percentile(values, 95), 1),
  max: round(Math.max(...values), 1),
  min: round(Math.min(...values), 1),
});

/** A domain as the API shows it: what the bench reads of it. */
type Shown = { id: number; serving: string; verification: { name: string; value: string } };

/** Stores a domain through the API and publishes its TXT record (and, with `cname`, its CNAME to the edge). */
async function storedDomain(api: ReturnType<typeof apiClient>, dns: DnsTestServer, name: string, indexPage: string) {
  const stored = await api('POST', '/domains', { name, index_page: indexPage });
  const shown = stored.data as unknown as Shown;
  dns.setTxt(shown.verification.name, [shown.verification.value]);
  return shown;
}

/** Forgets a domain's records in the DNS server. */
function unpublish(dns: DnsTestServer, name: string) {
  dns.clear(name);
  dns.clear(verificationName(name));
}

// ---------- sync lag ----------

type Change = { lagMs: number | null; writeMs: number };

async function syncLag(stack: Stack, dns: DnsTestServer): Promise<LagKind[]> {
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
      const { id } = await storedDomain(api, dns, name, one);
      // Both records in place before the verify: the sync creates the tenant at once (served once deployed).
      dns.setCname(name, EDGE_HOSTNAME);
      const pending = await visit(name);
      if (pending.status !== 403) throw new Error(`${name}: a pending domain answered ${pending.status}, not 403`);
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
      // Its tenant disabled, no tenant serves the host: CloudFront answers 403 itself.
      results.delete.push(
        await measure(
          () => api('DELETE', `/domains/${id}`),
          name,
          (a) => a.status === 403,
        ),
      );
      unpublish(dns, name);
    }
  } finally {
    close();
  }
  const expected = {
    verify: '302 to the index page',
    update: '302 to the new index page',
    delete: "403 (CloudFront's own: no tenant serves the host)",
  };
  return (Object.keys(results) as LagKind['kind'][]).map((kind) => {
    const changes = results[kind];
    const lags = changes.flatMap((change) => (change.lagMs === null ? [] : [change.lagMs]));
    return {
      kind,
      expected: expected[kind],
      changes: changes.length,
      served: lags.length,
      withinBound: lags.filter((lag) => lag <= BOUND_MS).length,
      lagMs: spreadOf(lags),
      writeMs: round(median(changes.map((change) => change.writeMs)), 1),
    };
  });
}

// ---------- CNAME published to active ----------

/**
 * A domain verified by its TXT record alone, left `waiting_for_dns` by the stack's follower: stored, verified,
 * then waited for until the follower's sync has asked DNS where the name points (its CNAME lookup, then its
 * address lookup: two queries for the name beyond the verify's own two), so that the CNAME published next is
 * found by the path measured, not by the sync of the verify.
 */
async function waitingDomain(api: ReturnType<typeof apiClient>, dns: DnsTestServer, name: string, indexPage: string) {
  const { id } = await storedDomain(api, dns, name, indexPage);
  const verified = (await api('POST', `/domains/${id}/verify`)).data as unknown as Shown;
  if (verified.serving !== 'waiting_for_dns') throw new Error(`${name}: verified as ${verified.serving}`);
  const asked = dns.queries(name);
  const deadline = Date.now() + GIVE_UP_MS;
  while (dns.queries(name) < asked + 2) {
    if (Date.now() > deadline) throw new Error(`${name}: the stack's follower did not sync its verify`);
    await sleep(5);
  }
  // The address answer, then the sync's end (the serving it found is the one shown: nothing to record).
  await sleep(50);
  const shown = (await api('GET', `/domains/${id}`)).data as unknown as Shown;
  if (shown.serving !== 'waiting_for_dns') throw new Error(`${name}: ${shown.serving} before its CNAME`);
  return id;
}

async function activation(stack: Stack, dns: DnsTestServer): Promise<ActivationPath[]> {
  const api = apiClient(stack);
  const { visit, close } = visitor(stack.edge);
  // The re-check as its function runs it (`functions/domains/recheck.ts`), against the stack's table and DNS.
  const db = createDb(loadConfig(process.env));
  const lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address] }), EDGE_HOSTNAME);

  /** From t0 (performance.now()), polls the API and the edge until the domain is active and served. */
  async function untilActive(id: number, name: string, indexPage: string, t0: number) {
    let activeMs: number | null = null;
    let servedMs: number | null = null;
    for (;;) {
      const at = performance.now();
      if (activeMs === null) {
        const shown = (await api('GET', `/domains/${id}`)).data as unknown as Shown;
        if (shown.serving === 'active') activeMs = performance.now() - t0;
        else if (shown.serving === 'failed') throw new Error(`${name}: failed, ${JSON.stringify(shown)}`);
      }
      if (servedMs === null) {
        const answer = await visit(name);
        if (answer.status === 302 && answer.location === indexPage) servedMs = performance.now() - t0;
      }
      if (activeMs !== null && servedMs !== null) return { activeMs, servedMs };
      if (performance.now() - t0 > GIVE_UP_MS) return { activeMs, servedMs };
      await sleep(Math.max(0, at + ACTIVE_POLL_MS - performance.now()));
    }
  }

  /** The domain's next check as the due-check index holds it (its owner is found there: npm start's key's). */
  async function nextDue(id: number, now: Date): Promise<number> {
    for await (const due of dueDomains(db, now)) {
      if (due.id !== id) continue;
      const domain = await showDomain(db, due.owner, id);
      return Date.parse(String(domain.nextCheckAt));
    }
    throw new Error(`Domain ${id} is not in the due-check index`);
  }

  type Sample = { activeMs: number | null; servedMs: number | null; triggerMs: number; serving: string };
  async function measurePath(path: ActivationPath['path']): Promise<ActivationPath> {
    const samples: Sample[] = [];
    const checkedPerRun: number[] = [];
    const nextDueLate: number[] = [];
    for (let index = 1; index <= ACTIVATIONS; index++) {
      progress(`edge CNAME to active (${path}): domain ${index}/${ACTIVATIONS}`);
      const name = `cname-${path === 'check now' ? 'verify' : 'recheck'}-${index}-${randomUUID().slice(0, 8)}.example.com`;
      const indexPage = `https://www.example.org/${index}/home`;
      const id = await waitingDomain(api, dns, name, indexPage);
      if (path === 're-check') {
        // A run while it still waits, as the schedule's runs check it until the CNAME appears: nothing new.
        const runStart = Date.now();
        const due = () => new Date(runStart + FAST_RECHECK_INTERVAL_MS + 1_000);
        const quiet = await runDueChecks({ db, lookupRecords, now: due });
        if (quiet.checked !== 1 || quiet.changed !== 0)
          throw new Error(`${name}: a quiet run did ${JSON.stringify(quiet)}`);
        // The run one interval after this one starts at runStart + the interval (the check's time is real), and
        // takes what is due up to DUE_AHEAD_MS after its start.
        nextDueLate.push(
          (await nextDue(id, new Date(Date.now() + 2 * FAST_RECHECK_INTERVAL_MS))) -
            (runStart + FAST_RECHECK_INTERVAL_MS + DUE_AHEAD_MS),
        );
      }
      // As in the lag: no fixed phase against the follower's poll.
      await sleep(Math.random() * FEED_INTERVAL_MS);
      const t0 = performance.now();
      dns.setCname(name, EDGE_HOSTNAME);
      let serving: string;
      if (path === 'check now') {
        serving = ((await api('POST', `/domains/${id}/verify`)).data as unknown as Shown).serving;
      } else {
        // The first run after the domain is due (5 minutes after its verify, while it waits for the edge).
        const run = await runDueChecks({
          db,
          lookupRecords,
          now: () => new Date(Date.now() + FAST_RECHECK_INTERVAL_MS + 1_000),
        });
        if (run.changed < 1 || run.failed > 0) throw new Error(`${name}: the re-check found ${JSON.stringify(run)}`);
        checkedPerRun.push(run.checked);
        serving = 'recorded by the run';
      }
      const triggerMs = performance.now() - t0;
      const times = await untilActive(id, name, indexPage, t0);
      samples.push({ ...times, triggerMs, serving });
      await api('DELETE', `/domains/${id}`);
      unpublish(dns, name);
    }
    const active = samples.flatMap((sample) => (sample.activeMs === null ? [] : [sample.activeMs]));
    const served = samples.flatMap((sample) => (sample.servedMs === null ? [] : [sample.servedMs]));
    return {
      path,
      domains: samples.length,
      activated: active.length,
      activeMs: spreadOf(active),
      servedMs: spreadOf(served),
      triggerMs: round(median(samples.map((sample) => sample.triggerMs)), 1),
      servingAfterTrigger: [...new Set(samples.map((sample) => sample.serving))],
      ...(path === 're-check'
        ? { checkedPerRun: [...new Set(checkedPerRun)], nextDueAfterNextRunMs: spreadOf(nextDueLate) }
        : {}),
    };
  }

  try {
    return [await measurePath('check now'), await measurePath('re-check')];
  } finally {
    close();
    db.client.destroy();
  }
}

// ---------- syncHost over the stage's edge on a local CloudFront ----------

/** Operations in order, repeats folded: `GetKey`, `PutKey`, `GetDistributionTenantByDomain ×2`. */
function operationsOf(calls: readonly CloudFrontCall[]): string[] {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.operation, (counts.get(call.operation) ?? 0) + 1);
  return [...counts].map(([operation, count]) => (count > 1 ? `${operation} ×${count}` : operation));
}

type SyncSample = {
  outcome: SyncOutcome;
  serving: ServingState | 'none';
  ms: number;
  lookupMs: number;
  tenantMs: number;
  recordMs: number;
  recorded: boolean;
  calls: CloudFrontCall[];
  dnsQueries: number;
};

/**
 * Without the stack (stopped before): domains written with the data layer the API's functions use, in the same
 * table under an owner of their own, and synced here by `syncHost` over `startStageEdge(...).edge` (the local
 * CloudFront's store and tenants through the SDK clients: SigV4A for the store), one sync after each event, as
 * the sync function runs for the event. Each part timed apart: the DynamoDB lookup, the tenant's `ensure` or
 * `remove`, the serving recorded; the rest is the store's read and conditional write.
 */
async function syncTime(dns: DnsTestServer): Promise<SyncKind[]> {
  const config = loadConfig({ ...process.env, DNS_RESOLVER: dns.address, EDGE_HOSTNAME });
  const db = createDb(config);
  const stage = await startStageEdge({ config, tenantPrefix: 'bench-edge-sync' });
  const lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address] }), EDGE_HOSTNAME);
  const owner = `bench-sync-${randomUUID().slice(0, 8)}`;
  const tenants = stage.edge.tenants;
  if (!tenants) throw new Error('The stage edge has no tenants');
  const data = edgeSyncDeps(db);
  // What the current sync spent where.
  let part = { lookupMs: 0, tenantMs: 0, recordMs: 0, recorded: false, serving: 'none' as SyncSample['serving'] };
  const timed = async <T>(key: 'lookupMs' | 'tenantMs' | 'recordMs', work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      part[key] += performance.now() - start;
    }
  };
  const deps: SyncDeps = {
    store: stage.edge.store,
    activeDomain: (host) => timed('lookupMs', () => data.activeDomain(host)),
    tenants: {
      ensure: (host) =>
        timed('tenantMs', async () => {
          const serving = await tenants.ensure(host);
          part.serving = serving.state;
          return serving;
        }),
      remove: (host) => timed('tenantMs', () => tenants.remove(host)),
    },
    recordServing: (domain, serving) =>
      timed('recordMs', async () => {
        part.recorded = true;
        await data.recordServing(domain, serving);
      }),
  };
  const samples = new Map<string, SyncSample[]>();
  async function sync(kind: string | null, host: string) {
    part = { lookupMs: 0, tenantMs: 0, recordMs: 0, recorded: false, serving: 'none' };
    const callsBefore = stage.cloudFront.calls.length;
    const queriesBefore = dns.queries(host);
    const start = performance.now();
    const outcome = await syncHost(deps, host);
    const ms = performance.now() - start;
    if (kind === null) return;
    samples.set(kind, [
      ...(samples.get(kind) ?? []),
      {
        outcome,
        ms,
        ...part,
        calls: stage.cloudFront.calls.slice(callsBefore),
        dnsQueries: dns.queries(host) - queriesBefore,
      },
    ]);
  }

  /** Two domains: one verified before its CNAME (found later by the re-check), one verified with both records. */
  async function life(label: string, index: number, measured: boolean) {
    const kind = (name: string) => (measured ? name : null);
    const page = (n: string) => `https://www.example.org/${index}/${n}`;
    const store = async (name: string) => {
      const item = (await storeDomain(db, owner, { name, indexPage: page('one'), notFoundPage: null })).result;
      dns.setTxt(verificationName(name), [item.verificationToken as string]);
      return item.id;
    };
    // Verified by its TXT record alone: the sync checks DNS, creates no tenant.
    const early = `${label}-${index}-early-${randomUUID().slice(0, 8)}.example.com`;
    const earlyId = await store(early);
    await verifyDomain(db, lookupRecords, owner, earlyId);
    await sync(kind('verify, no CNAME yet'), early);
    // Its CNAME published: the re-check records it (a `domain.updated`), whose sync creates the tenant.
    dns.setCname(early, EDGE_HOSTNAME);
    await recheckDomain(db, lookupRecords, owner, earlyId);
    await sync(kind('CNAME found by the re-check'), early);
    await destroyDomain(db, owner, earlyId);
    await sync(null, early);
    // Verified with both records in place: the tenant is created by the verify's sync.
    const name = `${label}-${index}-${randomUUID().slice(0, 8)}.example.com`;
    const id = await store(name);
    dns.setCname(name, EDGE_HOSTNAME);
    await verifyDomain(db, lookupRecords, owner, id);
    await sync(kind('verify with CNAME'), name);
    await sync(kind('re-sync, nothing changed'), name);
    await updateDomain(db, owner, id, { indexPage: page('two') });
    await sync(kind('update'), name);
    await destroyDomain(db, owner, id);
    await sync(kind('delete'), name);
    unpublish(dns, early);
    unpublish(dns, name);
  }

  try {
    // Unmeasured: the clients' first connections and signing keys, the code paths' first runs.
    for (let index = 1; index <= SYNC_WARM_UP; index++) await life('warm', index, false);
    progress(`edge syncHost: ${SYNC_DOMAINS} x 2 domains over the local CloudFront, six kinds of event`);
    for (let index = 1; index <= SYNC_DOMAINS; index++) await life('sync', index, true);
  } finally {
    await stage.close();
    db.client.destroy();
  }
  const medianOf = (list: readonly SyncSample[], pick: (sample: SyncSample) => number, digits = 3) =>
    round(median(list.map(pick)), digits);
  return [...samples].map(([kind, list]) => {
    const outcomes = [...new Set(list.map((sample) => sample.outcome))];
    if (outcomes.length !== 1) throw new Error(`syncHost (${kind}) answered ${outcomes.join(' and ')}`);
    const servings = [...new Set(list.map((sample) => sample.serving))];
    if (servings.length !== 1) throw new Error(`syncHost (${kind}) found ${servings.join(' and ')}`);
    const first = list[0] as SyncSample;
    return {
      kind,
      outcome: outcomes[0] as SyncOutcome,
      serving: servings[0] as SyncKind['serving'],
      n: list.length,
      medianMs: medianOf(list, (sample) => sample.ms),
      p95Ms: round(
        percentile(
          list.map((sample) => sample.ms),
          95,
        ),
        3,
      ),
      lookupMedianMs: medianOf(list, (sample) => sample.lookupMs),
      storeMedianMs: medianOf(list, (sample) => sample.ms - sample.lookupMs - sample.tenantMs - sample.recordMs),
      tenantMedianMs: medianOf(list, (sample) => sample.tenantMs),
      recordMedianMs: medianOf(list, (sample) => sample.recordMs),
      recorded: list.filter((sample) => sample.recorded).length,
      cloudFrontCalls: medianOf(list, (sample) => sample.calls.length, 1),
      operations: operationsOf(first.calls),
      dnsQueries: medianOf(list, (sample) => sample.dnsQueries, 1),
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
    const paths = await activation(stack, dns);
    // The stack stopped first: its follower would sync the next domains too.
    await stack.stop();
    stack = undefined;
    const sync = await syncTime(dns);
    const result: EdgeSection = {
      node: process.version,
      budgetMs: BUDGET_MS,
      function: fn,
      lag: { pollMs: POLL_MS, giveUpMs: GIVE_UP_MS, boundMs: BOUND_MS, feedIntervalMs: FEED_INTERVAL_MS, kinds },
      activation: {
        pollMs: ACTIVE_POLL_MS,
        giveUpMs: GIVE_UP_MS,
        feedIntervalMs: FEED_INTERVAL_MS,
        recheckIntervalMs: FAST_RECHECK_INTERVAL_MS,
        paths,
      },
      sync: { domains: SYNC_DOMAINS, warmUp: SYNC_WARM_UP, kinds: sync },
      edgeHostname: EDGE_HOSTNAME,
      loadAverage,
      loadAverageAfter: loadavg().map((value) => round(value, 2)),
      durationSeconds: round((Date.now() - started) / 1000, 1),
    };
    writeResult(result);
  } finally {
    await stack?.stop();
    await dns.close();
  }
}

await main();
