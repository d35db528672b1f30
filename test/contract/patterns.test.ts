/**
 * Every `pattern` of the published documents (docs/openapi.json, and the event bus's schema) is in JSON
 * Schema's interoperable subset of regular expressions, so that tools in any language read it as we do: it
 * holds no raw control, format or separator character (every character but printable ASCII is a `\uXXXX`
 * escape: Prism writes patterns into headers, generators into source code), it compiles in JavaScript
 * (ECMA-262 with the `u` flag, as JSON Schema reads patterns, and without it, as zod's generated validators
 * write them) and in Python's `re` (what Schemathesis, Hypothesis and Python's JSON Schema validators use;
 * `python3`, spawned, warnings as errors), and both engines agree on generated strings that match it and on the
 * same strings with one character changed. Values generated from the patterns pass the service's own request schemas
 * (`test/unit/request-schemas.test.ts`, property-based).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMA_FILE, OPENAPI_FILE, WEBHOOK_SCHEMA_FILE } from '#lib/openapi/files.ts';
import { matching } from '#test/support/patterns.ts';
import { seeded } from '#test/support/seed.ts';

const PYTHON = process.env.PYTHON ?? 'python3';

/** Every `pattern` keyword's value in a JSON document, with where it is. */
function patternsOf(file: string): { where: string; pattern: string }[] {
  const found: { where: string; pattern: string }[] = [];
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const [index, each] of node.entries()) walk(each, `${path}/${index}`);
    } else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'pattern' && typeof value === 'string') found.push({ where: `${path}/pattern`, pattern: value });
        else walk(value, `${path}/${key}`);
      }
    }
  };
  walk(JSON.parse(readFileSync(file, 'utf8')), file.split('/').slice(-2).join('/'));
  return found;
}

const documented = [OPENAPI_FILE, EVENT_SCHEMA_FILE, WEBHOOK_SCHEMA_FILE].flatMap(patternsOf);
const distinct = [...new Set(documented.map(({ pattern }) => pattern))];

/**
 * What falls outside the subset: a group that is not a plain one (`(?=`, `(?!`, `(?<=`, `(?:`, `(?<name>`…), and
 * any escape but of a character the syntax uses (`\.`, `\-`) or of a BMP character by its four hex digits
 * (`\u2028`, which JavaScript, with or without the `u` flag, and Python read alike): no `\d \s \w \b` (whose
 * meanings differ between engines: Python's `\d` is any Unicode digit), no `\u{…}`, `\xXX` or `\p{…}`.
 */
function outsideTheSubset(pattern: string): string[] {
  const problems: string[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      const next = pattern[index + 1] ?? '';
      if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(pattern.slice(index + 2, index + 6))) {
        index += 5;
        continue;
      }
      if (!'\\^$.|?*+()[]{}-/'.includes(next) || next === '') problems.push(`the escape \\${next} at ${index}`);
      index++;
    } else if (character === '(' && pattern[index + 1] === '?') {
      problems.push(`the group (?${pattern[index + 2] ?? ''} at ${index}`);
    }
  }
  return problems;
}

type PythonAnswer = { errors: Record<string, string>; matches: Record<string, boolean[]> };

/** Compiles each pattern with Python's `re` (warnings are errors) and matches the samples as `re.search` does. */
function python(samples: Record<string, string[]>): PythonAnswer {
  const script = [
    'import json, re, sys, warnings',
    'warnings.simplefilter("error")',
    'given = json.load(sys.stdin)',
    'errors, matches = {}, {}',
    'for pattern, strings in given.items():',
    '    try:',
    '        compiled = re.compile(pattern)',
    '    except Exception as error:',
    '        errors[pattern] = f"{type(error).__name__}: {error}"',
    '        continue',
    '    matches[pattern] = [compiled.search(each) is not None for each in strings]',
    'json.dump({"errors": errors, "matches": matches}, sys.stdout)',
  ].join('\n');
  const run = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(samples), encoding: 'utf8' });
  if (run.error) {
    throw new Error(
      `${PYTHON} could not be run (${run.error.message}): this test needs Python 3 (apt-get install -y python3; .ci/run installs it), or PYTHON=<path>.`,
    );
  }
  if (run.status !== 0) throw new Error(`${PYTHON} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as PythonAnswer;
}

/** Characters to change a matching string with: where engines may differ (spaces, digits, beyond the BMP). */
const TRICKY = [
  ' ',
  '\t',
  '\u000b',
  '\u001c',
  '\u0085',
  '\u00a0',
  '\u2007',
  '\u200b',
  '\u2028',
  '\u3000',
  '\ufeff',
  '٣',
  '９',
  'é',
  'ß',
  'K',
  '-',
  '.',
  '/',
  ':',
  '%',
  '"',
  '\\',
  '[',
  ']',
  '^',
  '😀',
  '\u{110bd}',
  '\u{e0041}',
  '\u{1d173}',
];

/** Strings the pattern matches (as tools generate them), and each with one character changed, inserted or cut. */
function samplesOf(pattern: string, seed: number): string[] {
  const matchingValues = fc.sample(matching(pattern), { numRuns: 60, seed });
  const changed = fc.sample(
    fc
      .tuple(
        fc.constantFrom(...matchingValues),
        fc.nat(),
        fc.constantFrom(...TRICKY),
        fc.constantFrom('set', 'insert', 'cut'),
      )
      .map(([value, at, character, how]) => {
        const characters = [...value];
        const index = characters.length === 0 ? 0 : at % characters.length;
        if (how === 'set') characters[index] = character;
        else if (how === 'insert') characters.splice(index, 0, character);
        else characters.splice(index, 1);
        return characters.join('');
      }),
    { numRuns: 120, seed: seed + 1 },
  );
  // Python's `$` also matches before a final newline (use `re.fullmatch` or `\Z` there): not compared.
  return [...matchingValues, ...changed, '', 'a', ' ', '0'].filter((value) => !value.endsWith('\n'));
}

describe('the patterns of the published documents', () => {
  it('are found: the request bodies, parameters and headers that have one', () => {
    // Assess
    expect(documented.length).toBeGreaterThanOrEqual(20);
    expect(distinct.length).toBeGreaterThanOrEqual(8);
  });

  it("are in JSON Schema's interoperable subset: no lookaround, no \\u{…}, no escape whose meaning differs", () => {
    // Act
    const outside = documented
      .map(({ where, pattern }) => ({ where, problems: outsideTheSubset(pattern) }))
      .filter(({ problems }) => problems.length > 0);
    // Assess
    expect(outside).toEqual([]);
  });

  it('hold no raw control, format, separator, private-use or surrogate character: only printable ASCII', () => {
    // Act: the plain space is printable ASCII, which headers and source code carry as it is.
    const raw = documented
      .map(({ where, pattern }) => ({
        where,
        characters: [...pattern]
          .filter((character) => character !== ' ' && /[\p{Cc}\p{Cf}\p{Z}\p{Co}\p{Cs}\p{Cn}]/u.test(character))
          .map((character) => `U+${character.codePointAt(0)?.toString(16).toUpperCase()}`),
      }))
      .filter(({ characters }) => characters.length > 0);
    const beyondAscii = documented.filter(({ pattern }) => /[^\u0020-\u007e]/u.test(pattern));
    // Assess
    expect(raw).toEqual([]);
    expect(beyondAscii.map(({ where }) => where)).toEqual([]);
  });

  it('compile in JavaScript without the u flag too, as generated validators write them (a /…/ literal)', () => {
    // Act: as a regular expression literal in source code, the way @hey-api/openapi-ts's zod output writes it.
    const failures = distinct.flatMap((pattern) => {
      try {
        new RegExp(pattern);
        new Function(`return /${pattern.replace(/(?<!\\)\//g, '\\/')}/;`)();
        return [];
      } catch (error) {
        return [{ pattern: pattern.slice(0, 80), error: (error as Error).message.slice(0, 120) }];
      }
    });
    // Assess
    expect(failures).toEqual([]);
  });

  it('compile in JavaScript (ECMA-262, u flag) and in Python, and both match the same strings', () => {
    // Prepare: strings the patterns match, as a tool generates them, and the same with one character changed.
    const draw = seeded('pattern samples');
    const samples = Object.fromEntries(
      distinct.map((pattern, index) => [pattern, samplesOf(pattern, draw.seed + index)]),
    );
    // Act
    const answer = python(samples);
    const disagreements = distinct.flatMap((pattern) => {
      const regex = new RegExp(pattern, 'u');
      return (samples[pattern] as string[])
        .filter((value, index) => regex.test(value) !== answer.matches[pattern]?.[index])
        .map((value) => ({ pattern: pattern.slice(0, 80), value, javascript: regex.test(value) }));
    });
    // Assess
    expect(answer.errors).toEqual({});
    expect(Object.keys(answer.matches)).toHaveLength(distinct.length);
    expect(disagreements, draw.label('disagreements')).toEqual([]);
  });

  it('tells the subset from what it excludes (the checker itself)', () => {
    // Act / Assess
    expect(outsideTheSubset('^[a-z\\-]+(\\.[a-z]+)*$')).toEqual([]);
    expect(outsideTheSubset('^(?!-)[a-z]+$')).toHaveLength(1);
    expect(outsideTheSubset('^(?:a|b)$')).toHaveLength(1);
    expect(outsideTheSubset('^[\\u{110BD}]$')).toHaveLength(1);
    expect(outsideTheSubset('^[^\\u0000-\\u001F\\u2028]$')).toEqual([]);
    expect(outsideTheSubset('^\\x00$')).toHaveLength(1);
    expect(outsideTheSubset('^\\d+$')).toHaveLength(1);
    expect(outsideTheSubset('^\\s\\S$')).toHaveLength(2);
    expect(python({ '^(?<!a)b$': ['b'], '[\\u{110BD}]': [] }).errors).toHaveProperty('[\\u{110BD}]');
  });
});
