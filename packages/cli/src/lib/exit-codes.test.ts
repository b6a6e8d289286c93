import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODES, errorCodeOf } from './exit-codes.js';

/** The rows of the README's exit-code table (under Conventions), as `[code, meaning]`. */
function readmeTable(): [number, string][] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('- Exit codes'));
  const header = section.indexOf('| code | meaning |');
  const table = section.slice(header, section.indexOf('\n\n', header));
  return [...table.matchAll(/^\s*\| (\d+) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2] as string]);
}

describe('the exit-code table', () => {
  it('is the README’s table, code for code and word for word', () => {
    const fromCode = Object.values(EXIT_CODES).map((e): [number, string] => [e.code, e.meaning]);
    expect(readmeTable()).toEqual(fromCode);
  });

  it('gives each code once, in order, and a --json error code for each failure', () => {
    expect(Object.values(EXIT)).toEqual([0, 1, 2, 3, 4, 5, 130]);
    expect([1, 2, 3, 4, 5, 130].map(errorCodeOf)).toEqual([
      'failed',
      'usage',
      'unreachable',
      'auth',
      'locked',
      'interrupted',
    ]);
    // A code outside the table (another signal's) is reported as a failure, never as no error.
    expect(errorCodeOf(143)).toBe('failed');
  });
});
