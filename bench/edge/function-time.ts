/**
 * The CloudFront Function's time per request (functions/edge/viewer-request.js), loaded as the local edge loads
 * it (`loadEdgeFunction`: the same source in the same sandbox) over a local key-value store holding 1,000 hosts,
 * for representative requests, against CloudFront Functions' time budget.
 */
import { median, percentile, progress, quick, round } from '#bench/support.ts';
import { type EdgeRequest, type EdgeResponse, type EdgeSettings, loadEdgeFunction } from '#infra/edge-function.ts';
import { LocalKeyValueStore } from '#infra/local/key-value-store.ts';
import type { EdgeEntry } from '#lib/edge/rules/entry.ts';

/**
 * CloudFront Functions' time budget per invocation. AWS documents the limit as compute utilization, the time
 * taken as a percentage of "the maximum allowed time", without giving that time; 1 ms is the figure commonly
 * cited for it (and the runtime is described as "submillisecond").
 */
export const BUDGET_MS = 1;
/** Hosts in the store the function reads: a store of some size, not a handful of keys. */
const HOSTS = 1_000;
/** Function timing: unmeasured calls per case first, then rounds of one batch per case, cases interleaved. */
const WARM_UP = quick ? 500 : 5_000;
const ROUNDS = quick ? 20 : 300;
const BATCH = 100;

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

export type FunctionTime = {
  hosts: number;
  warmUp: number;
  rounds: number;
  batch: number;
  /** A back-to-back pair of process.hrtime.bigint() calls, median, ns: included in the per-request figures. */
  timerOverheadNs: number;
  cases: EdgeCase[];
};

const SETTINGS: EdgeSettings = {
  defaultIndexPage: '',
  defaultNotFoundPage: 'https://stage.example/missing',
  cacheSeconds: 60,
};

async function put(store: LocalKeyValueStore, host: string, entry: EdgeEntry) {
  const { etag } = await store.read(host);
  await store.put(host, entry, etag);
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

export async function functionTime(): Promise<FunctionTime> {
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
