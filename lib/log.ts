/**
 * One JSON line per event, for CloudWatch Logs Insights. Callers pass only what is safe to keep:
 * never a key, an Authorization header or a request body.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, message, ...fields, timestamp: new Date().toISOString() });
  if (level === 'error' || level === 'warn') console.error(line);
  else console.log(line);
}
