import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect } from 'vitest';

const scratch = mkdtempSync(join(tmpdir(), 'vsf-modules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A module of zod. */
export const isZod = (url: string): boolean => /[/@]zod[@/]/.test(url);

/** A module of the contract, from its sources or its package. */
export const isContract = (url: string): boolean =>
  url.includes('/packages/contract/') || url.includes('/@vsf/contract/');

/**
 * Every module URL a fresh Node resolves while running `script` in the package of the test at `testUrl` (its
 * `import.meta.url`, in the package's `test/`), through a module hook.
 */
export function modulesLoadedBy(testUrl: string, script: string): string[] {
  const packageDir = new URL('..', testUrl).pathname;
  const log = join(scratch, `modules-${Math.random().toString(36).slice(2)}.log`);
  const hooks = join(scratch, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');
  return result;
}
`,
  );
  writeFileSync(log, '');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      `data:text/javascript,${encodeURIComponent(register)}`,
      '--input-type=module',
      '-e',
      script,
    ],
    { cwd: packageDir, encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  return [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
}
