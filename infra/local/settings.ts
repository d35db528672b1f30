/** Where `npm start` keeps its state, shared with the key tool so it finds the running stack. */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type LocalSettings = { dataDir: string; tableName: string };

/** The local stack's data folder and table name, from the environment of the command that runs it. */
export const localSettings = (env: Record<string, string | undefined>): LocalSettings => ({
  dataDir: resolve(env.DATA_DIR ?? '.data'),
  tableName: env.TABLE_NAME ?? 'domains-spaces-local',
});

export type LocalStack = { endpoint: string; tableName: string };

const stackFile = (dataDir: string) => join(dataDir, 'local-stack.json');

export function writeLocalStack(dataDir: string, stack: LocalStack): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(stackFile(dataDir), `${JSON.stringify(stack, null, 2)}\n`);
}

export function readLocalStack(dataDir: string): LocalStack | null {
  const file = stackFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalStack) : null;
}

/** A value generated once and kept in the data folder (mode 600), so it survives restarts. */
export function persistedSecret(
  dataDir: string,
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

export function saveSecret(dataDir: string, name: string, value: string): void {
  writeFileSync(join(dataDir, name), `${value}\n`, { mode: 0o600 });
}
