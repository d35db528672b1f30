/**
 * What docs/deployment.md (and the README's Deployment section) say about the stack is what the stack deploys:
 * how many functions, which ones by name, and the outputs. The stack is built here as `cdk synth` builds it
 * (`createApp`), without bundling the code (CDK's `aws:cdk:bundling-stacks` context, empty): only its constructs.
 * And the README's error bodies are the ones the API sends; its requirements name the Chromium the tests drive.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, CfnOutput } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import { ApiFunction } from '#infra/constructs/api-function.ts';
import { createApp } from '#infra/create-app.ts';
import { parseBody } from '#lib/http/body.ts';
import { errorCatalogue } from '#lib/http/errors.ts';
import { authorizerHandler, routes } from '#lib/routes.ts';
import { DEFAULT_CHROMIUM } from '#test/support/chromium.ts';

const deploymentDoc = readFileSync(join(projectRoot, 'docs', 'deployment.md'), 'utf8');
const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

const { stack } = createApp('dev', new App({ context: { 'aws:cdk:bundling-stacks': [] } }));

/**
 * Every function of ours the stack deploys (each is an `ApiFunction`, wherever in the tree it is made), by its
 * name as the docs and log groups show it: its FunctionName without the `<stack name>-` prefix.
 */
const deployedFunctions = stack.node
  .findAll()
  .filter((construct) => construct instanceof ApiFunction)
  .map((fn) => String((fn.node.defaultChild as CfnFunction).functionName).replace(`${stack.stackName}-`, ''))
  .sort();

const deployedOutputs = stack.node
  .findAll()
  .filter((construct) => construct instanceof CfnOutput)
  .map((output) => output.node.id)
  .sort();

const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
/** A count as written: digits or a word up to ten; -1 otherwise. */
const numberOf = (text: string) => (/^\d+$/.test(text) ? Number(text) : NUMBERS.indexOf(text.toLowerCase()));

/** The text from `start` up to `end` (by default, to the end of the paragraph). */
function between(document: string, start: string, end = '\n\n'): string {
  const from = document.indexOf(start);
  const to = document.indexOf(end, from + start.length);
  if (from === -1 || to === -1) throw new Error(`No text from "${start}" to "${end}"`);
  return document.slice(from, to);
}

describe('docs/deployment.md against the stack', () => {
  it('the stack has a function per route, named after it, and the authorizer', () => {
    // Assess: the registry drives the stack's functions (the docs' list is compared with the stack below)
    expect(deployedFunctions).toEqual(
      expect.arrayContaining([...routes.map((route) => route.name), authorizerHandler]),
    );
    expect(deployedFunctions).toHaveLength(new Set(deployedFunctions).size);
  });

  it('states the number of functions the stack deploys, wherever it counts them', () => {
    // Prepare
    const counts = [
      ...[...deploymentDoc.matchAll(/\b(\d+) functions\b/g)].map((match) => ({
        where: `docs/deployment.md: "${match[0]}"`,
        count: Number(match[1]),
      })),
      ...[...readme.matchAll(/\b(\d+) `nodejs24\.x` arm64 functions\b/g)].map((match) => ({
        where: `README.md: "${match[0]}"`,
        count: Number(match[1]),
      })),
    ];
    // Assess: each count (docs/deployment.md counts them twice, the README once)
    for (const { where, count } of counts) expect({ where, count }).toEqual({ where, count: deployedFunctions.length });
    expect(counts.length).toBeGreaterThanOrEqual(3);
  });

  it('names every function the stack deploys, and no other', () => {
    // Prepare: the list under "Where the logs are"
    const list = between(deploymentDoc, '`<function>` is one of the');
    const named = [...list.matchAll(/`([a-z]+(?:-[a-z]+)*)`/g)].map((match) => match[1] as string).sort();
    // Assess
    expect(named).toEqual(deployedFunctions);
  });

  it("lists the stack's outputs, as many as it says", () => {
    // Prepare
    const section = between(deploymentDoc, 'The stack prints', '\nRead them back later');
    const stated = /The stack prints (\w+) outputs:/.exec(section)?.[1] ?? '';
    const listed = [...section.matchAll(/^- `(\w+)`/gm)].map((match) => match[1] as string).sort();
    // Assess
    expect(listed).toEqual(deployedOutputs);
    expect(numberOf(stated)).toBe(deployedOutputs.length);
  });
});

/** The body parser's message for each way a body can be malformed (its 400s). */
const malformedBodyMessages = (
  [
    ['{"name":', 'application/json'],
    ['[1]', 'application/json'],
    ['name=%zz', 'application/x-www-form-urlencoded'],
    [Buffer.from([0x7b, 0xff, 0x7d]).toString('base64'), 'application/json', true],
  ] as const
).map(([body, contentType, base64 = false]) => {
  try {
    parseBody(body, base64, contentType);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${body} was parsed`);
});

describe("the README's errors", () => {
  const rows = readme.split('\n').filter((line) => /^\| \d{3}\b/.test(line));

  it('shows each error body as the API sends it', () => {
    // Prepare: every whole body in the table (one cut short with … is not whole)
    const bodies = rows.flatMap((row) =>
      [...row.matchAll(/`(\{"message":"[^"…]*","status":\d+\})`/g)].map((match) => ({
        status: Number(row.slice(2, 5)),
        body: JSON.parse(match[1] as string) as { message: string; status: number },
      })),
    );
    // Assess
    expect(bodies.length).toBeGreaterThanOrEqual(7);
    for (const { status, body } of bodies) {
      const sent = Object.values(errorCatalogue)
        .filter((entry) => entry.status === status)
        .map((entry) => entry.message as string);
      if (status === 400) sent.push(...malformedBodyMessages);
      expect({ status, body }).toEqual({ status, body: { message: expect.toBeOneOf(sent), status } });
    }
  });

  it("names every 400 message: the body parser's and the gateway's", () => {
    // Prepare
    const row = rows.find((line) => line.startsWith('| 400 ')) ?? '';
    const named = [...row.matchAll(/`([A-Z][^`]*\.)`/g)].map((match) => match[1] as string);
    // Assess
    expect(new Set(named)).toEqual(new Set([...malformedBodyMessages, errorCatalogue.badRequest.message]));
  });

  it('lists the Chromium the reference page test drives among the requirements, and its setting', () => {
    // Act
    const requirements = between(readme, 'Requirements:', '\nRun it:');
    // Assess
    expect(requirements).toContain(`Chromium at \`${DEFAULT_CHROMIUM}\``);
    expect(requirements).toContain('`CHROMIUM_PATH`');
  });
});
