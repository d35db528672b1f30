/**
 * The time from a domain's CNAME published to its `serving` being `active`, through the local stack of
 * `npm start`, by the owner's "check now" (`POST /domains/{id}/verify`) and by the re-check (`runDueChecks`, run
 * here against the stack's table as the schedule would run it once the domain is due).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  EDGE_HOSTNAME,
  type EdgeSpread,
  FEED_INTERVAL_MS,
  GIVE_UP_MS,
  type Shown,
  spreadOf,
  storedDomain,
  unpublish,
} from '#bench/edge/common.ts';
import { type Api, apiClient, visitor } from '#bench/stack/http.ts';
import type { NpmStart } from '#bench/stack/npm-start.ts';
import { median, progress, quick, round } from '#bench/support.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { dueDomains } from '#lib/domains/data/checks.ts';
import { showDomain } from '#lib/domains/data/domains.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { DUE_AHEAD_MS, runDueChecks } from '#lib/domains/recheck.ts';
import { FAST_RECHECK_INTERVAL_MS } from '#lib/domains/rules/dns-records.ts';
import { loadConfig } from '#lib/platform/config.ts';
import type { DnsTestServer } from '#test/support/dns-server.ts';

/** Domains per path; the API and the edge asked this often (a GET goes through the gateway). */
const ACTIVATIONS = quick ? 5 : 30;
const ACTIVE_POLL_MS = 20;

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

export type Activation = {
  pollMs: number;
  giveUpMs: number;
  feedIntervalMs: number;
  recheckIntervalMs: number;
  paths: ActivationPath[];
};

/**
 * A domain verified by its TXT record alone, left `waiting_for_dns` by the stack's follower: stored, verified,
 * then waited for until the follower's sync has asked DNS where the name points (its CNAME lookup, then its
 * address lookup: two queries for the name beyond the verify's own two), so that the CNAME published next is
 * found by the path measured, not by the sync of the verify.
 */
async function waitingDomain(api: Api, dns: DnsTestServer, name: string, indexPage: string) {
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

export async function activation(stack: NpmStart, dns: DnsTestServer): Promise<Activation> {
  const api = apiClient(stack.api, stack.key, stack.output);
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
    const paths = [await measurePath('check now'), await measurePath('re-check')];
    return {
      pollMs: ACTIVE_POLL_MS,
      giveUpMs: GIVE_UP_MS,
      feedIntervalMs: FEED_INTERVAL_MS,
      recheckIntervalMs: FAST_RECHECK_INTERVAL_MS,
      paths,
    };
  } finally {
    close();
    db.client.destroy();
  }
}
