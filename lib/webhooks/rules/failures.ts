/**
 * Why a delivery attempt failed when no answer came, as the attempts list says it: each way the network can
 * fail (`delivery.ts` tells them apart), and `destination`, for a destination refused before any connection (a
 * host that now resolves to a private address…). An answer outside 2xx has its status code instead. On the
 * ground floor: the data layer stores these, the attempt finds them, the response schema lists them.
 */
export const transportFailures = [
  /** The deadline passed: in DNS, connecting, or waiting for or reading the answer. */
  'timeout',
  /** The host's addresses could not be learned (no such name, no address, resolver failure). */
  'dns',
  'refused',
  'reset',
  /** No route to the host or its network. */
  'unreachable',
  /** The TLS handshake failed: an untrusted, expired or other-named certificate, or no common protocol. */
  'tls',
  /** The answer was not HTTP. */
  'protocol',
  'network',
] as const;
export type TransportFailure = (typeof transportFailures)[number];

export const deliveryFailures = [...transportFailures, 'destination'] as const;
export type DeliveryFailure = (typeof deliveryFailures)[number];

export const isTransportFailure = (value: string): value is TransportFailure =>
  (transportFailures as readonly string[]).includes(value);
