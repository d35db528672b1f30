/**
 * The little XML that CloudFront's REST-XML protocol needs: rendering answers (elements, escaped text) and reading
 * request bodies into a tree. Attributes, comments, CDATA and processing instructions are skipped: the SDK's
 * serializer sends none but the `xmlns` of the root and the `<?xml …?>` declaration.
 */

/** CloudFront's namespace, on the root of every body it sends (API version 2020-05-31). */
export const CLOUDFRONT_XMLNS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? '');

/** `<name>text</name>`, or nothing for an absent value. */
export function leaf(name: string, value: string | number | boolean | undefined | null): string {
  return value === undefined || value === null ? '' : `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** `<name>…</name>` around already rendered children. */
export const node = (name: string, ...children: string[]): string => `<${name}>${children.join('')}</${name}>`;

/** A whole body: the declaration, then the root element in CloudFront's namespace. */
export const xmlDocument = (root: string, ...children: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?><${root} xmlns="${CLOUDFRONT_XMLNS}">${children.join('')}</${root}>`;

export type XmlElement = { name: string; text: string; children: XmlElement[] };

export class XmlSyntaxError extends Error {}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    return ENTITIES[entity] ?? whole;
  });
}

/** Reads a document into its root element; throws `XmlSyntaxError` on anything malformed. */
export function parseXml(source: string): XmlElement {
  const root: XmlElement = { name: '#document', text: '', children: [] };
  const open: XmlElement[] = [root];
  const token =
    /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)([^>]*?)(\/?)>|([^<]+)/g;
  for (const match of source.matchAll(token)) {
    const [whole, cdata, closing, name, , selfClosing, text] = match;
    const current = open.at(-1) as XmlElement;
    if (text !== undefined || cdata !== undefined) {
      current.text += cdata ?? unescapeXml(text ?? '');
    } else if (name !== undefined && closing) {
      if (current.name !== name) throw new XmlSyntaxError(`</${name}> closes <${current.name}>`);
      open.pop();
    } else if (name !== undefined) {
      const element: XmlElement = { name, text: '', children: [] };
      current.children.push(element);
      if (!selfClosing) open.push(element);
    } else if (!whole.startsWith('<?') && !whole.startsWith('<!--')) {
      throw new XmlSyntaxError(`Unexpected ${whole}`);
    }
  }
  const [element, ...more] = root.children;
  if (open.length !== 1 || !element || more.length > 0) throw new XmlSyntaxError('Not one root element');
  return element;
}

/** The first child element called `name`. */
export const childOf = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.children.find((child) => child.name === name);

/** The text of the child `name`, trimmed; undefined when there is no such child. */
export const textOf = (element: XmlElement | undefined, name: string): string | undefined =>
  childOf(element, name)?.text.trim();

/** The items of the list element `name`, whatever they are called (the SDK sends `member` for most lists). */
export const itemsOf = (element: XmlElement | undefined, name: string): XmlElement[] =>
  childOf(element, name)?.children ?? [];

/** A boolean child: `true`/`false`, or undefined when absent. */
export function booleanOf(element: XmlElement | undefined, name: string): boolean | undefined {
  const text = textOf(element, name);
  return text === undefined ? undefined : text === 'true';
}
