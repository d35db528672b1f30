/** Where `npm start` keeps its state, shared with the key tool so it finds the running stack. */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const dataDir = resolve(process.env.DATA_DIR ?? '.data');
export const localTableName = process.env.TABLE_NAME ?? 'domains-spaces-local';
const stackFile = join(dataDir, 'local-stack.json');

export type LocalStack = { endpoint: string; tableName: string };

export function writeLocalStack(stack: LocalStack): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(stackFile, `${JSON.stringify(stack, null, 2)}\n`);
}

export function readLocalStack(): LocalStack | null {
  return existsSync(stackFile) ? (JSON.parse(readFileSync(stackFile, 'utf8')) as LocalStack) : null;
}

/** A value generated once and kept in the data folder (mode 600), so it survives restarts. */
export function persistedSecret(
  name: string,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = generate();
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return value;
}

export function saveSecret(name: string, value: string): void {
  writeFileSync(join(dataDir, name), `${value}\n`, { mode: 0o600 });
}
