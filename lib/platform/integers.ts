/**
 * A positive integer as text: decimal digits, no sign, no leading zero, no spaces (`7`; not `07`, `+7` or `7.0`).
 * The `{id}` path parameter, the list's `page` and `per_page`, and the numeric settings are read with it; each
 * bounds the number itself (an id by `MAX_ID`, of `ID_DIGITS` digits).
 */
export const POSITIVE_INTEGER = /^[1-9]\d*$/;
