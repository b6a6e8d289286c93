import type { ValidationDetail } from '../errors/api-http-error.js';

/**
 * How deep a JSON body may nest. The contract's deepest input is a few levels; 64 leaves room for free-form
 * objects (form values, metadata) while every recursive walk after parsing (validation, fingerprints,
 * `jsonb` encoding) stays far from the stack limit.
 */
export const MAX_JSON_DEPTH = 64;

/** Reporting stops after this many problems: a body with a million NULs needs no million details. */
const MAX_PROBLEMS = 20;

const NUL_MESSAGE = 'Contains a NUL character (\\u0000), which cannot be stored; remove it';
const KEY_NUL_MESSAGE = 'The key contains a NUL character (\\u0000), which cannot be stored; rename it';

/**
 * What a parsed JSON value holds that the database cannot store or that would overflow a recursive walk:
 * NUL characters in strings and object keys (PostgreSQL `text` and `jsonb` refuse them) and nesting deeper
 * than `MAX_JSON_DEPTH`. Walks iteratively, so the check itself cannot overflow. `prefix` names the part
 * of the request (`''` for the body, so paths read like validation paths).
 */
export function jsonSafetyProblems(root: unknown, prefix = ''): ValidationDetail[] {
  const problems: ValidationDetail[] = [];
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: prefix, depth: 0 }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) problems.push({ path, message: NUL_MESSAGE });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      problems.push({ path, message: `Nested deeper than ${MAX_JSON_DEPTH} levels; flatten the value` });
      continue;
    }
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, index) => [String(index), item])
      : Object.entries(value);
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      if (!Array.isArray(value) && key.includes('\u0000')) {
        problems.push({ path: childPath.replaceAll('\u0000', '\\u0000'), message: KEY_NUL_MESSAGE });
        continue;
      }
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return problems;
}
