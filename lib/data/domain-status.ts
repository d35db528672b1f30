/**
 * A domain's status. Free of imports, so that presenting a domain (`lib/resources.ts`, which the change feed's
 * write path uses for events) does not import the data layer that writes it.
 */
export type DomainStatus = 'pending' | 'active';

/** Domains stored before verification existed have no `status`: they are active. */
export const statusOf = (item: { status?: DomainStatus }): DomainStatus => item.status ?? 'active';

/** Whether the edge serves an active domain: `pending` until its tenant and certificate are ready. */
export type ServingState = 'pending' | 'active' | 'failed';
