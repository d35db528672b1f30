/**
 * The HTTP conventions API Gateway answers itself when a stage lists its CORS origins (the stages allow `*`,
 * asserted with the whole stack in stack.test.ts): the API and firewall constructs alone, over stand-in
 * functions, so nothing is bundled. And the literal mapping templates the mock answers are written with.
 */
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { literalTemplate } from '#infra/constructs/mapping-templates.ts';
import { Api } from '#infra/constructs/rest-api.ts';
import { ApiFirewall } from '#infra/constructs/waf.ts';
import { type StageConfig, stages } from '#infra/stages.ts';
import { errorBody } from '#lib/http/errors.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS } from '#lib/http/headers.ts';
import { apiPaths, documentRoute, routes } from '#lib/routes.ts';

const ORIGINS = ['https://app.example.com', 'https://admin.example.com'];

type Resource = { Type: string; Properties: Record<string, unknown> };

/** The API and its firewall for a stage configuration, with inline stand-ins for the functions. */
function synthesize(config: StageConfig) {
  const stack = new Stack(new App(), 'conventions');
  const fn = (id: string) =>
    new LambdaFunction(stack, id, {
      runtime: Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: Code.fromInline('export const handler = async () => ({ statusCode: 200, body: "" });'),
    });
  const api = new Api(stack, 'api', {
    config,
    authorizer: fn('authorizer'),
    routes: routes.map((route) => ({ route, fn: fn(route.name) })),
  });
  new ApiFirewall(stack, 'waf', { config, stage: api.restApi.deploymentStage });
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  const pathOf = (id: unknown): string => {
    const ref = (id as { Ref?: string }).Ref;
    const resource = ref ? (resources[ref]?.Properties as { ParentId: unknown; PathPart: string }) : undefined;
    return resource ? `${pathOf(resource.ParentId)}/${resource.PathPart}` : '';
  };
  /** A method's first answer (a mock's one; the document's 200): its status, header mappings and template. */
  const mock = (method: string, path: string) => {
    const found = ofType('AWS::ApiGateway::Method').find(
      ([, resource]) => resource.Properties.HttpMethod === method && pathOf(resource.Properties.ResourceId) === path,
    );
    if (!found) throw new Error(`No ${method} ${path}`);
    const integration = found[1].Properties.Integration as {
      IntegrationResponses: {
        StatusCode: string;
        ResponseParameters: Record<string, string>;
        ResponseTemplates?: Record<string, string>;
      }[];
    };
    const [response] = integration.IntegrationResponses;
    const headers = Object.fromEntries(
      Object.entries(response?.ResponseParameters ?? {}).map(([key, value]) => [
        key.replace('method.response.header.', ''),
        value,
      ]),
    );
    return { status: response?.StatusCode, headers, template: response?.ResponseTemplates?.['application/json'] ?? '' };
  };
  return { ofType, mock };
}

/** The template's check of the request's Origin, and what it sets for an allowed one. */
const originCheck = (set: Record<string, string>) =>
  [
    "#set($origin = $input.params().header.get('Origin'))",
    "#if(!$origin)#set($origin = $input.params().header.get('origin'))#end",
    "#if($origin == 'https://app.example.com' || $origin == 'https://admin.example.com')",
    ...Object.entries(set).map(([name, value]) => `#set($context.responseOverride.header.${name} = ${value})`),
    '#end',
  ].join('');

describe('a stage that lists its CORS origins', () => {
  const listed = synthesize({ ...stages.prod, corsAllowedOrigins: ORIGINS });

  it('answers a preflight with CORS headers only for a listed origin, and varies on Origin', () => {
    for (const path of apiPaths) {
      // Act
      const { status, headers, template } = listed.mock('OPTIONS', path.path);
      // Assess: fixed for every origin…
      expect(status).toBe('204');
      expect(headers).toEqual({
        Allow: `'${path.methods.join(', ')}'`,
        Vary: "'Origin'",
        'X-Request-Id': 'context.requestId',
      });
      // …the rest set for a listed origin only
      expect(template).toBe(
        originCheck({
          'Access-Control-Allow-Origin': '$origin',
          'Access-Control-Allow-Methods': `'${path.methods.join(', ')}'`,
          'Access-Control-Allow-Headers': `'${CORS_ALLOW_HEADERS.join(', ')}'`,
          'Access-Control-Max-Age': "'600'",
        }),
      );
    }
  });

  it('names a listed origin only on its 405s and on the document', () => {
    // Prepare
    const exposed = {
      'Access-Control-Allow-Origin': '$origin',
      'Access-Control-Expose-Headers': `'${CORS_EXPOSE_HEADERS.join(', ')}'`,
    };
    // Act
    const notAllowed = listed.mock('ANY', '/api/v1/spaces');
    const document = listed.mock('GET', documentRoute.path);
    // Assess
    expect(notAllowed.status).toBe('405');
    expect(notAllowed.headers).toEqual({
      Allow: "'GET, HEAD, POST, OPTIONS'",
      Vary: "'Origin'",
      'X-Request-Id': 'context.requestId',
    });
    expect(notAllowed.template).toBe(
      `${originCheck(exposed)}${literalTemplate(JSON.stringify(errorBody('methodNotAllowed')))}`,
    );
    expect(document.headers).toEqual({
      'Content-Type': "'application/json'",
      'Cache-Control': "'public, max-age=300'",
      Vary: "'Origin'",
      'X-Request-Id': 'context.requestId',
    });
    // The S3 object's body after the CORS headers: its template outputs the integration's body as it is
    expect(document.template).toBe(`${originCheck(exposed)}$input.body`);
  });

  it("echoes the request's Origin on the gateway's own errors, which a gateway response cannot compare", () => {
    for (const [, response] of listed.ofType('AWS::ApiGateway::GatewayResponse')) {
      expect(response.Properties.ResponseParameters).toMatchObject({
        'gatewayresponse.header.Access-Control-Allow-Origin': 'method.request.header.Origin',
        'gatewayresponse.header.Vary': "'Origin'",
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
      });
    }
  });

  it("leaves CORS out of the firewall's 429, whose headers are fixed", () => {
    // Act
    const [[, acl] = []] = listed.ofType('AWS::WAFv2::WebACL');
    const headers = JSON.stringify(acl?.Properties.Rules);
    // Assess
    expect(headers).toContain('Retry-After');
    expect(headers).not.toContain('Access-Control-');
  });

  it('refuses to synthesize an origin as browsers never send it', () => {
    // Act / Assess
    expect(() => synthesize({ ...stages.dev, corsAllowedOrigins: ['https://app.example.com/'] })).toThrow(
      'must list origins',
    );
  });
});

describe('the stages', () => {
  it('let any origin read the API: keys are bearer tokens, never cookies', () => {
    expect(stages.dev.corsAllowedOrigins).toBe('*');
    expect(stages.prod.corsAllowedOrigins).toBe('*');
  });
});

describe('literalTemplate', () => {
  /** What Velocity outputs for a literal template: the two variables, then references to them. */
  const rendered = (template: string) => {
    const prefix = "#set($D = '$')#set($H = '#')";
    expect(template.startsWith(prefix)).toBe(true);
    const body = template.slice(prefix.length);
    // Nothing else for Velocity to read: every `$` is `${D}` or `${H}`, and no `#` is left
    expect(body.replace(/\$\{[DH]\}/g, '')).not.toMatch(/[$#]/);
    return body.replace(/\$\{([DH])\}/g, (_, name) => (name === 'D' ? '$' : '#'));
  };

  it.each([
    ['references', '{"$ref":"#/components/schemas/Error","$schema":"x"}'],
    ['directives and comments', '## heading #set($x = 1) #if(true) #* block *# #end'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Velocity's formal references, as text to output.
    ['formal references', '${D} $!{x} $H'],
    ['other characters', 'ü … \\n "quoted" \\\\ back'],
  ])('outputs text with %s as it is', (_, text) => {
    expect(rendered(literalTemplate(text))).toBe(text);
  });

  it('refuses a backslash before $ or #, which Velocity would read as an escape', () => {
    expect(() => literalTemplate('a \\$ref')).toThrow('backslash');
    expect(() => literalTemplate('a \\#set')).toThrow('backslash');
  });
});
