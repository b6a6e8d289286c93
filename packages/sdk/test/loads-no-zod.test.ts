import { describe, expect, it } from 'vitest';
import { modulesLoadedBy } from '../../../scripts/test-support/modules-loaded-by.js';

const packageDir = new URL('..', import.meta.url).pathname;

describe('loading the SDK', () => {
  it('loads no zod and nothing of the contract', () => {
    const modules = modulesLoadedBy(
      packageDir,
      "const sdk = await import('@vsf/sdk'); await import('@vsf/sdk/node'); new sdk.VsfClient({ apiKey: 'vsf_abcdefghijkl.x' });",
    );
    // The hook saw the SDK and its runtime dependencies, so an empty list cannot pass.
    expect(modules.some((url) => url.endsWith('/packages/sdk/src/index.ts'))).toBe(true);
    expect(modules.some((url) => /\/node_modules\/(\.pnpm\/)?ky[@/]/.test(url))).toBe(true);
    expect(modules.filter((url) => /[/@]zod[@/]/.test(url))).toEqual([]);
    expect(modules.filter((url) => url.includes('/packages/contract/') || url.includes('/@vsf/contract/'))).toEqual([]);
  });

  it('the same script importing the contract does load zod (the probe sees it)', () => {
    const modules = modulesLoadedBy(packageDir, "await import('@vsf/contract');");
    expect(modules.some((url) => /[/@]zod[@/]/.test(url))).toBe(true);
  });
});
