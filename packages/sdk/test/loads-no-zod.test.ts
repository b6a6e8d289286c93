import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const packageDir = new URL('..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'vsf-sdk-modules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every module URL a fresh Node resolves while running `script` in this package, through a module hook. */
function modulesLoadedBy(script: string): string[] {
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

describe('loading the SDK', () => {
  it('loads no zod and no contract schema, only the contract’s zod-free image check', () => {
    const modules = modulesLoadedBy(
      "const sdk = await import('@vsf/sdk'); await import('@vsf/sdk/node'); new sdk.VsfClient({ apiKey: 'vsf_abcdefghijkl.x' });",
    );
    // The hook saw the SDK and its runtime dependencies, so an empty list cannot pass.
    expect(modules.some((url) => url.endsWith('/packages/sdk/src/index.ts'))).toBe(true);
    expect(modules.some((url) => /\/node_modules\/(\.pnpm\/)?ky[@/]/.test(url))).toBe(true);
    expect(modules.filter((url) => /[/@]zod[@/]/.test(url))).toEqual([]);
    expect(modules.filter((url) => url.includes('/packages/contract/') || url.includes('/@vsf/contract/'))).toEqual([
      expect.stringMatching(/\/packages\/contract\/src\/image-type\.ts$/),
    ]);
  });

  it('the same script importing the contract does load zod (the probe sees it)', () => {
    const modules = modulesLoadedBy("await import('@vsf/contract');");
    expect(modules.some((url) => /[/@]zod[@/]/.test(url))).toBe(true);
  });
});
