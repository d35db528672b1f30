/** URL facts shared by the request schemas and the data layer (neither imports the other). */

/** The host a page URL points at, as a stored domain name is written (`example.com.` is `example.com`). */
export const pageHost = (url: string) => new URL(url).hostname.replace(/\.$/, '');
