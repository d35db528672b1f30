/**
 * The EventBridge Pipes enrichment of the change feed: the batch of DynamoDB stream records of new events
 * (the pipe's filter passes only those) as the events the bus carries. It reads nothing and needs no setting.
 */
import { type BusEvent, busEvent, type StreamRecord } from '#lib/events-bus.ts';

export const publish = async (records: StreamRecord[]): Promise<BusEvent[]> =>
  records.flatMap((record) => busEvent(record) ?? []);

/** Like every function module, for the local emulation; it has no configuration to bind. */
export const create = () => publish;

export const handler = publish;
