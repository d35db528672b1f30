/**
 * Reads a Query's KeyConditionExpression, so that an item a hidden transaction deleted can be put back where it
 * was: `hash = :v`, optionally AND one of `range = | < | <= | > | >= :v`, `range BETWEEN :a AND :b`,
 * `begins_with(range, :p)`, with `#name` placeholders and parentheses. Anything else (the legacy `KeyConditions`
 * parameter, OR, functions other than begins_with) gives undefined: the harness then puts nothing back.
 */
import { type AttributeValue, compareKeyValues, type KeySchema } from './protocol.ts';

export type RangeCondition =
  | { op: '=' | '<' | '<=' | '>' | '>='; value: AttributeValue }
  | { op: 'between'; low: AttributeValue; high: AttributeValue }
  | { op: 'begins_with'; prefix: AttributeValue };

export type KeyCondition = { hash: AttributeValue; range?: RangeCondition };

type Term = { name: string; condition: RangeCondition };

const tokenPattern = /\s*(#\w+|:\w+|<=|>=|<>|[=<>(),]|[A-Za-z_][\w.-]*)/y;

function tokenize(expression: string): string[] | undefined {
  const tokens: string[] = [];
  tokenPattern.lastIndex = 0;
  while (tokenPattern.lastIndex < expression.length) {
    if (expression.slice(tokenPattern.lastIndex).trim() === '') break;
    const match = tokenPattern.exec(expression);
    if (!match?.[1]) return undefined;
    tokens.push(match[1]);
  }
  return tokens;
}

export function parseKeyCondition(
  expression: string | undefined,
  names: Record<string, string> = {},
  values: Record<string, AttributeValue> = {},
  schema: KeySchema,
): KeyCondition | undefined {
  const tokens = expression ? tokenize(expression) : undefined;
  if (!tokens) return undefined;
  let at = 0;
  const next = () => tokens[at++];
  const expect = (token: string) => {
    if (next()?.toLowerCase() !== token) throw new Error(`expected ${token}`);
  };
  const name = () => {
    const token = next() ?? '';
    return token.startsWith('#') ? (names[token] ?? '') : token;
  };
  const value = () => {
    const found = values[next() ?? ''];
    if (!found) throw new Error('unknown value');
    return found;
  };
  const term = (): Term[] => {
    if (tokens[at] === '(') {
      next();
      const inner = conjunction();
      expect(')');
      return inner;
    }
    if (tokens[at]?.toLowerCase() === 'begins_with') {
      next();
      expect('(');
      const attribute = name();
      expect(',');
      const prefix = value();
      expect(')');
      return [{ name: attribute, condition: { op: 'begins_with', prefix } }];
    }
    const attribute = name();
    const op = next()?.toLowerCase();
    if (op === 'between') {
      const low = value();
      expect('and');
      return [{ name: attribute, condition: { op: 'between', low, high: value() } }];
    }
    if (op === '=' || op === '<' || op === '<=' || op === '>' || op === '>=') {
      return [{ name: attribute, condition: { op, value: value() } }];
    }
    throw new Error(`unsupported operator ${op}`);
  };
  const conjunction = (): Term[] => {
    const terms = term();
    while (tokens[at]?.toLowerCase() === 'and') {
      next();
      terms.push(...term());
    }
    return terms;
  };
  try {
    const terms = conjunction();
    if (at !== tokens.length) return undefined;
    const hash = terms.find((each) => each.name === schema.hash && each.condition.op === '=');
    const range = terms.find((each) => each.name === schema.range);
    if (hash?.condition.op !== '=' || terms.length !== (range ? 2 : 1)) return undefined;
    return { hash: hash.condition.value, ...(range ? { range: range.condition } : {}) };
  } catch {
    return undefined;
  }
}

export function satisfies(value: AttributeValue, condition: RangeCondition): boolean {
  switch (condition.op) {
    case 'between':
      return compareKeyValues(value, condition.low) >= 0 && compareKeyValues(value, condition.high) <= 0;
    case 'begins_with':
      return startsWith(value, condition.prefix);
    default: {
      const order = compareKeyValues(value, condition.value);
      return { '=': order === 0, '<': order < 0, '<=': order <= 0, '>': order > 0, '>=': order >= 0 }[condition.op];
    }
  }
}

/** begins_with on a string (its characters) or on a binary (its bytes). */
function startsWith(value: AttributeValue, prefix: AttributeValue): boolean {
  if (typeof value.S === 'string' && typeof prefix.S === 'string') return value.S.startsWith(prefix.S);
  if (typeof value.B !== 'string' || typeof prefix.B !== 'string') return false;
  const bytes = Buffer.from(value.B, 'base64');
  const start = Buffer.from(prefix.B, 'base64');
  return bytes.subarray(0, start.byteLength).equals(start);
}
