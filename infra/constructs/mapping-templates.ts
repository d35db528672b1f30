/**
 * The answers API Gateway writes itself (the mock integrations' and the OpenAPI document's), as integration
 * responses and method responses: a status, fixed headers, the CORS headers, `X-Request-Id`, and a body written
 * as a Velocity (VTL) mapping template; and the quotas those templates live in.
 */
import type { IntegrationResponse, MethodResponse } from 'aws-cdk-lib/aws-apigateway';
import type { AllowedOrigins } from '#lib/platform/origins.ts';

/**
 * API Gateway's mapping-template quota: "Maximum mapping template size: 300 KB", not adjustable ("Quotas for
 * configuring and running a REST API in API Gateway",
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html),
 * read the stricter way: 1 KB = 1,000 bytes.
 */
export const MAPPING_TEMPLATE_MAX_BYTES = 300_000;
/** What one template of ours may take: half the quota, so that none is ever near it. */
export const MAPPING_TEMPLATE_BUDGET_BYTES = MAPPING_TEMPLATE_MAX_BYTES / 2;
/** "Payload size: 10 MB", not adjustable (the same page), read as 10,000,000 bytes. */
export const PAYLOAD_MAX_BYTES = 10_000_000;

/**
 * A response mapping template that outputs `text` exactly. Templates are Velocity (VTL): `$` starts a reference
 * and `#` a directive (`##` a comment), so each is written as a variable holding the character. A backslash
 * before either would escape it in turn; the text must not hold one there.
 */
export function literalTemplate(text: string): string {
  if (/\\[$#]/.test(text)) throw new Error('A literal mapping template cannot hold a backslash before $ or #');
  // biome-ignore lint/suspicious/noTemplateCurlyInString: VTL formal references (`${D}`), not placeholders.
  const references: Record<string, string> = { $: '${D}', '#': '${H}' };
  return `#set($D = '$')#set($H = '#')${text.replace(/[$#]/g, (char) => references[char] as string)}`;
}

/**
 * What an answer sends for a request's `Origin` when only listed origins may read it. A mapping template sets
 * these headers (`$context.responseOverride`) when `Origin` is one of the list, and none for any other origin;
 * with `*` they are fixed header mappings instead.
 */
function originTemplate(origins: readonly string[], headers: Record<string, string>): string {
  const allowed = origins.map((origin) => `$origin == '${origin}'`).join(' || ');
  const set = Object.entries(headers)
    .map(([name, value]) =>
      name === 'Access-Control-Allow-Origin'
        ? `#set($context.responseOverride.header.${name} = $origin)`
        : `#set($context.responseOverride.header.${name} = '${value}')`,
    )
    .join('');
  return [
    `#set($origin = $input.params().header.get('Origin'))`,
    `#if(!$origin)#set($origin = $input.params().header.get('origin'))#end`,
    `#if(${allowed})${set}#end`,
  ].join('');
}

/** The CORS headers of an answer: fixed with `*`, set by the template for a listed origin otherwise. */
export function corsOf(allowed: AllowedOrigins, headersFor: (origin: string) => Record<string, string>) {
  if (allowed === '*') return { fixed: headersFor('*'), template: '', names: Object.keys(headersFor('*')) };
  const example = allowed[0] as string;
  const { Vary, ...perOrigin } = headersFor(example);
  return {
    fixed: Vary ? { Vary } : {},
    template: originTemplate(allowed, perOrigin),
    names: [...Object.keys(perOrigin), ...(Vary ? ['Vary'] : [])],
  };
}

export type Cors = ReturnType<typeof corsOf>;

/** The integration's own body (S3's object), passed on as it is. */
export const INTEGRATION_BODY = Symbol('the integration body');

export type GatewayAnswer = {
  statusCode: number;
  /** Which integration statuses it answers (a regular expression); absent: the default answer. */
  selectionPattern?: string;
  headers: Record<string, string>;
  cors: Cors;
  /** Literal text (`''`: none), or the integration's body. */
  body: string | typeof INTEGRATION_BODY;
};

/**
 * An answer as API Gateway configures it: the integration response (its header mappings and template) and the
 * method response that declares its headers. A template over our budget fails the synthesis, naming `what`.
 * The integration's body goes on without a template when no CORS template is needed: API Gateway passes an
 * integration response through when it has no mapping template.
 */
export function gatewayAnswer(
  answer: GatewayAnswer,
  what: string,
): { integrationResponse: IntegrationResponse; methodResponse: MethodResponse } {
  const { statusCode, selectionPattern, headers, cors, body } = answer;
  const text = body === INTEGRATION_BODY ? '$input.body' : body === '' ? '' : literalTemplate(body);
  const template = `${cors.template}${text}`;
  if (Buffer.byteLength(template) > MAPPING_TEMPLATE_BUDGET_BYTES) {
    throw new Error(`The ${what} answer's mapping template is over half of API Gateway's quota`);
  }
  const fixed = { ...headers, ...cors.fixed };
  const passedOn = body === INTEGRATION_BODY && cors.template === '';
  const declared = [...Object.keys(fixed), ...cors.names, 'X-Request-Id'];
  return {
    integrationResponse: {
      statusCode: String(statusCode),
      ...(selectionPattern === undefined ? {} : { selectionPattern }),
      responseParameters: {
        ...Object.fromEntries(
          Object.entries(fixed).map(([name, value]) => [`method.response.header.${name}`, `'${value}'`]),
        ),
        'method.response.header.X-Request-Id': 'context.requestId',
      },
      ...(passedOn ? {} : { responseTemplates: { 'application/json': template } }),
    },
    methodResponse: {
      statusCode: String(statusCode),
      responseParameters: Object.fromEntries(declared.map((name) => [`method.response.header.${name}`, false])),
    },
  };
}
