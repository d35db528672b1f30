/** Condition expressions as parts that combine: each with the names and values it uses. */

/** A condition on an item, with the names and values it uses. */
export type Condition = { expression: string; names: Record<string, string>; values: Record<string, unknown> };

/** Conditions that must all hold, as one (their names and values must not clash). */
export function allOf(...conditions: readonly (Condition | undefined)[]): Condition {
  const present = conditions.filter((condition): condition is Condition => condition !== undefined);
  return {
    expression: present.map((condition) => `(${condition.expression})`).join(' AND '),
    names: Object.assign({}, ...present.map((condition) => condition.names)),
    values: Object.assign({}, ...present.map((condition) => condition.values)),
  };
}
