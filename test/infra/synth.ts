/**
 * Synthesizes a stage the way `cdk synth` does (cdk.json's feature flags, cdk-nag plugins, real esbuild
 * bundles) and answers the questions the infra tests ask of the template.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { projectRoot } from '#infra/bundling.ts';
import { createApp } from '#infra/create-app.ts';
import type { StageName } from '#infra/stages.ts';

type Resource = { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string };
type Statement = { Action: string | string[]; Resource: unknown; Effect: string };

const cdkContext = JSON.parse(readFileSync(join(projectRoot, 'cdk.json'), 'utf8')).context;

/** One cloud assembly folder for every stage synthesized in a test file: the second stage reuses the bundles. */
export const assemblyDir = mkdtempSync(join(tmpdir(), 'cdk-assembly-'));

export function synthesize(stage: StageName) {
  const { app, stack, config } = createApp(stage, new App({ outdir: assemblyDir, context: { ...cdkContext, stage } }));
  const assembly = app.synth();
  const template = Template.fromStack(stack);
  const resources = template.toJSON().Resources as Record<string, Resource>;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);

  /** The one resource of this type. */
  function only(type: string): [string, Resource] {
    const found = ofType(type);
    if (found.length !== 1) throw new Error(`Expected one ${type}, found ${found.length}`);
    return found[0] as [string, Resource];
  }

  /** Lambda functions by the name after the stage prefix (route name, or `authorizer`). */
  const functions = new Map(
    ofType('AWS::Lambda::Function').map(([id, resource]) => {
      const name = String(resource.Properties.FunctionName).replace(`domains-spaces-${stage}-`, '');
      return [name, { id, ...resource.Properties } as Record<string, unknown> & { id: string }];
    }),
  );

  /** Each action of a role's policies, with the (JSON) resources it is allowed on. */
  function grants(roleId: string): Record<string, string[]> {
    const result: Record<string, string[]> = {};
    for (const [, policy] of ofType('AWS::IAM::Policy')) {
      const roles = JSON.stringify(policy.Properties.Roles);
      if (!roles.includes(`"${roleId}"`)) continue;
      const document = policy.Properties.PolicyDocument as { Statement: Statement[] };
      for (const statement of document.Statement) {
        expectAllow(statement);
        for (const action of [statement.Action].flat()) {
          const allowed = [statement.Resource].flat().map((resource) => JSON.stringify(resource));
          result[action] = [...(result[action] ?? []), ...allowed].sort();
        }
      }
    }
    return result;
  }

  /** Full path of an API Gateway resource, walking its parents up to the root. */
  function resourcePath(resourceId: unknown): string {
    const ref = (resourceId as { Ref?: string }).Ref;
    if (!ref) return '';
    const resource = resources[ref]?.Properties as { ParentId: unknown; PathPart: string };
    return `${resourcePath(resource.ParentId)}/${resource.PathPart}`;
  }

  /** Where a function's bundle was written in the cloud assembly. */
  const bundleDir = (fn: Record<string, unknown>) => {
    const key = String((fn.Code as { S3Key: string }).S3Key).replace(/\.zip$/, '');
    return join(assembly.directory, `asset.${key}`);
  };

  /** The template's bytes as the cloud assembly holds them: what `cdk deploy` uploads for CloudFormation. */
  const templateBytes = statSync(assembly.getStackArtifact(stack.artifactId).templateFullPath).size;

  return {
    app,
    stack,
    config,
    template,
    resources,
    ofType,
    only,
    functions,
    grants,
    resourcePath,
    bundleDir,
    templateBytes,
  };
}

function expectAllow(statement: Statement) {
  if (statement.Effect !== 'Allow') throw new Error(`Unexpected statement ${JSON.stringify(statement)}`);
}

export type Synthesized = ReturnType<typeof synthesize>;
