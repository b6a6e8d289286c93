import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES } from '../src/cli/environment-help.js';

const run = promisify(execFile);
const src = join(import.meta.dirname, '../src');
const bin = join(src, 'bin/vsf-server.ts');
const tsx = join(import.meta.dirname, '../../../node_modules/.bin/tsx');

/** Read by the server's sources but not configuration of `vsf-server start`. */
const NOT_SERVER_CONFIGURATION = new Set([
  'NODE_ENV', // test runners set it; only picks the default log level
  'TEST_DATABASE_URL', // @vsf/server/testing
  'VSF_ADMIN_URL', // the admin subcommands' target, documented by their own --help
]);

function variablesReadBySources(): string[] {
  const names = new Set<string>();
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const match of text.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) names.add(match[1] as string);
    // Destructured reads: `const { VSF_TWILIO_AUTH_TOKEN: token } = env`.
    for (const match of text.matchAll(/\b(VSF_[A-Z0-9_]+)\s*:/g)) names.add(match[1] as string);
  }
  return [...names].filter((name) => !NOT_SERVER_CONFIGURATION.has(name)).sort();
}

describe('vsf-server start --help', () => {
  it('lists every environment variable the server reads', async () => {
    const { stdout } = await run(tsx, [bin, 'start', '--help']);
    expect(stdout).toContain('Environment variables:');
    const read = variablesReadBySources();
    expect(read).toContain('DATABASE_URL');
    expect(read.filter((name) => !stdout.includes(`  ${name} `))).toEqual([]);
    expect([...ENVIRONMENT_VARIABLES].sort()).toEqual(expect.arrayContaining(read));
  });

  it('names the same variables as the README configuration table', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('### Teams and keys'));
    expect(ENVIRONMENT_VARIABLES.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });
});
