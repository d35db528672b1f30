/** A space's limits, which the request schemas check and the response schema states. */
export const SPACE_NAME_MAX = 32;
export const COLORS = { min: 1, max: 6, default: 1 } as const;
