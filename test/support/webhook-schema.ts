/**
 * The committed schema of what a webhook is sent (`docs/events/webhook.v1.schema.json`), compiled once with Ajv
 * (JSON Schema 2020-12, strict): the test receiver checks every body it is sent against it.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { WEBHOOK_SCHEMA_FILE } from '#lib/openapi/files.ts';

let compiled: { ajv: Ajv2020; validate: ValidateFunction } | undefined;

function validator() {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    (addFormatsModule as unknown as typeof addFormatsModule.default)(ajv, ['date-time']);
    ajv.addFormat('uri', (value: string) => URL.canParse(value));
    compiled = { ajv, validate: ajv.compile(JSON.parse(readFileSync(WEBHOOK_SCHEMA_FILE, 'utf8'))) };
  }
  return compiled;
}

/** Why a webhook body is not one the schema describes (not JSON, or its errors), or null when it is. */
export function webhookBodyProblem(body: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'not JSON';
  }
  const { ajv, validate } = validator();
  if (validate(parsed)) return null;
  return ajv.errorsText(validate.errors, { separator: '; ' }).slice(0, 600);
}
