/**
 * The sync lag: from an API write that changes what a host serves (verify, update of its index page, delete) to
 * the local edge answering the new state, end to end against the local stack of `npm start`
 * (bench/stack/npm-start.ts), with each domain's TXT record and its CNAME to the stack's edge host name published
 * in a DNS server on 127.0.0.1 (test/support/dns-server.ts).
 */

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  EDGE_HOSTNAME,
  type EdgeSpread,
  FEED_INTERVAL_MS,
  GIVE_UP_MS,
  spreadOf,
  storedDomain,
  unpublish,
} from '#bench/edge/common.ts';
import { type Answer, apiClient, visitor } from '#bench/stack/http.ts';
import type { NpmStart } from '#bench/stack/npm-start.ts';
import { median, progress, quick, round } from '#bench/support.ts';
import type { DnsTestServer } from '#test/support/dns-server.ts';

/** Changes per kind, the edge polled this often after each write. */
const CHANGES = quick ? 5 : 30;
const POLL_MS = 10;
/** The bound. */
const BOUND_MS = 2_000;

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

export type SyncLag = {
  pollMs: number;
  giveUpMs: number;
  boundMs: number;
  feedIntervalMs: number;
  kinds: LagKind[];
};

type Change = { lagMs: number | null; writeMs: number };

export async function syncLag(stack: NpmStart, dns: DnsTestServer): Promise<SyncLag> {
  const api = apiClient(stack.api, stack.key, stack.output);
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
          () => api('PATCH', `/domains/${id}`, { form: { index_page: two } }),
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
  const kinds = (Object.keys(results) as LagKind['kind'][]).map((kind) => {
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
  return { pollMs: POLL_MS, giveUpMs: GIVE_UP_MS, boundMs: BOUND_MS, feedIntervalMs: FEED_INTERVAL_MS, kinds };
}
