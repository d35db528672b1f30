/**
 * The authorizer's answer for a key: an IAM policy that allows exactly the routes its scopes cover. API Gateway
 * caches the answer per `Authorization` value and evaluates the cached policy on every request, whatever route
 * it is for, so the policy names every covered route and never depends on the route that asked.
 */
import type { APIGatewayAuthorizerResult, PolicyDocument, Statement } from 'aws-lambda';
import type { Scope } from '#lib/kinds.ts';
import { routeMethods, routesFor } from '#lib/routes.ts';
import { scopesContext } from './rules/scopes.ts';

/** The log message of every refused key; the stack counts these apart from the authorizer's failures. */
export const AUTHORIZATION_REFUSED = 'Authorization refused';

const ACTION = 'execute-api:Invoke';

/** `arn:aws:execute-api:<region>:<account>:<apiId>/<stage>`, from any method ARN of the stage. */
export function stageArn(methodArn: string): string {
  const [api, stage] = methodArn.split('/');
  if (!api || !stage) throw new Error('Malformed method ARN');
  return `${api}/${stage}`;
}

/**
 * One resource per covered method and path, `{id}` as `*`: `<stage ARN>/GET/api/v1/spaces/*`. In an
 * execute-api ARN `*` matches any characters, so it covers every id. HEAD is covered wherever GET is: API
 * Gateway authorizes a HEAD request on its own method ARN.
 */
export function resourcesFor(methodArn: string, granted: readonly Scope[]): string[] {
  const stage = stageArn(methodArn);
  return routesFor(granted).flatMap((route) =>
    routeMethods(route).map((method) => `${stage}/${method}${route.path.replace(/\{[^}/]+\}/g, '*')}`),
  );
}

/**
 * Allow on the covered routes; a key whose scopes cover nothing gets an explicit Deny on the whole stage
 * (a policy needs a statement), so every route answers 403.
 */
export function policyFor(methodArn: string, granted: readonly Scope[]): PolicyDocument {
  const resources = resourcesFor(methodArn, granted);
  const statement: Statement =
    resources.length > 0
      ? { Action: ACTION, Effect: 'Allow', Resource: resources }
      : { Action: ACTION, Effect: 'Deny', Resource: `${stageArn(methodArn)}/*/*` };
  return { Version: '2012-10-17', Statement: [statement] };
}

/**
 * The whole answer. The context reaches every function as `requestContext.authorizer`: the owner, the scopes
 * (`scopesContext`) and the key's rotation line (`keyLineage`, the prefix of its line's first key: what a webhook
 * records of the key that directs it, `lib/auth/rules/request-key.ts`).
 */
export const authorizerResult = (
  methodArn: string,
  owner: string,
  granted: readonly Scope[],
  lineage: string,
): APIGatewayAuthorizerResult => ({
  principalId: owner,
  policyDocument: policyFor(methodArn, granted),
  context: { ownerId: owner, scopes: scopesContext(granted), keyLineage: lineage },
});
