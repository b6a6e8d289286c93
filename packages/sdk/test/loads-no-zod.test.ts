import { describe, expect, it } from 'vitest';
import { isContract, isZod, modulesLoadedBy } from '../../../config/test-support/modules-loaded-by.js';

describe('loading the SDK', () => {
  it('loads no zod and nothing of the contract', () => {
    const modules = modulesLoadedBy(
      import.meta.url,
      "const sdk = await import('@vsf/sdk'); await import('@vsf/sdk/node'); new sdk.VsfClient({ apiKey: 'vsf_abcdefghijkl.x' });",
    );
    // The hook saw the SDK and its runtime dependencies, so an empty list cannot pass.
    expect(modules.some((url) => url.endsWith('/packages/sdk/src/index.ts'))).toBe(true);
    expect(modules.some((url) => /\/node_modules\/(\.pnpm\/)?ky[@/]/.test(url))).toBe(true);
    expect(modules.filter(isZod)).toEqual([]);
    expect(modules.filter(isContract)).toEqual([]);
  });

  it('the same script importing the contract does load zod (the probe sees it)', () => {
    const modules = modulesLoadedBy(import.meta.url, "await import('@vsf/contract');");
    expect(modules.some(isZod)).toBe(true);
  });
});
