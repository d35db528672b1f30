/**
 * The EventBridge Pipes enrichment of the change feed: the batch of DynamoDB stream records of new events
 * (the pipe's filter passes only those) as the events the bus carries. It reads nothing; its settings are the
 * edge host name, which the domains it presents name (`EDGE_HOSTNAME`), and the routing endpoint where the
 * stage has a name of its own (`EDGE_ROUTING_ENDPOINT`, an apex's ALIAS target).
 */

import type { StreamRecord } from '#lib/data/stream.ts';
import { type BusEvent, busEvent } from '#lib/feed/bus.ts';
import { atColdStart, edgeHostOf, loadPublisherConfig, type PublisherConfig } from '#lib/platform/cold-start.ts';

export const create = (config: PublisherConfig) => {
  const edge = edgeHostOf(config);
  return async (records: StreamRecord[]): Promise<BusEvent[]> =>
    records.flatMap((record) => busEvent(record, edge) ?? []);
};

// Not `loadConfig` of lib/platform/config.ts: its settings schema (valibot) would be most of this function's bundle.
export const handler = atColdStart(create, loadPublisherConfig);
