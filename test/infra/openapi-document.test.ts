/**
 * The bounds the synthesis keeps for what API Gateway answers itself: no mapping template over half of API
 * Gateway's 300 KB quota, and an OpenAPI document within half of its 10 MB payload quota. The document's
 * integration in the stack is asserted in stack.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import {
  corsOf,
  gatewayAnswer,
  INTEGRATION_BODY,
  MAPPING_TEMPLATE_BUDGET_BYTES,
  MAPPING_TEMPLATE_MAX_BYTES,
  PAYLOAD_MAX_BYTES,
} from '#infra/constructs/mapping-templates.ts';
import { OpenApiDocument } from '#infra/constructs/openapi-document.ts';

const noCors = corsOf('*', () => ({}));

describe('the mapping-template budget', () => {
  it("is half of API Gateway's quota", () => {
    expect(MAPPING_TEMPLATE_MAX_BYTES).toBe(300_000);
    expect(MAPPING_TEMPLATE_BUDGET_BYTES).toBe(150_000);
  });

  it('refuses to synthesize an answer whose template is over it', () => {
    // Prepare: the literal template adds its two variables (28 bytes) to the text
    const answer = (bytes: number) => ({ statusCode: 200, headers: {}, cors: noCors, body: 'x'.repeat(bytes) });
    // Act / Assess
    expect(() => gatewayAnswer(answer(MAPPING_TEMPLATE_BUDGET_BYTES - 28), 'GET /small')).not.toThrow();
    expect(() => gatewayAnswer(answer(MAPPING_TEMPLATE_BUDGET_BYTES - 27), 'GET /big')).toThrow(
      "The GET /big answer's mapping template is over half of API Gateway's quota",
    );
  });

  it("passes the integration's body on without a template when no CORS template is needed", () => {
    // Act
    const { integrationResponse } = gatewayAnswer(
      { statusCode: 200, headers: {}, cors: noCors, body: INTEGRATION_BODY },
      'GET /document',
    );
    // Assess
    expect(integrationResponse.responseTemplates).toBeUndefined();
  });
});

describe('the OpenAPI document', () => {
  const fileOf = (bytes: number) => {
    const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
    writeFileSync(file, `"${'x'.repeat(bytes - 2)}"`);
    return file;
  };
  const deploy = (file: string) => new OpenApiDocument(new Stack(new App(), 'document'), 'document', file);

  it("is deployed up to half of API Gateway's 10 MB payload quota, and refused past it", () => {
    expect(PAYLOAD_MAX_BYTES).toBe(10_000_000);
    expect(() => deploy(fileOf(PAYLOAD_MAX_BYTES / 2))).not.toThrow();
    expect(() => deploy(fileOf(PAYLOAD_MAX_BYTES / 2 + 1))).toThrow("over half of API Gateway's 10 MB payload quota");
  });
});
