import { describe, expect, it } from 'vitest';
import { isContract, isZod, modulesLoadedBy } from '../../../config/test-support/modules-loaded-by.js';

describe('loading the sync', () => {
  it('loads no zod and no contract module: its resources are a generated table', () => {
    const modules = modulesLoadedBy(
      import.meta.url,
      "const sync = await import('@vsf/sync'); if (sync.syncableResources().length < 10) throw new Error('no resources');",
    );
    // The hook saw the sync and the SDK it pages through, so an empty list cannot pass.
    expect(modules.some((url) => url.endsWith('/packages/sync/src/index.ts'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/packages/sync/src/generated/resources.ts'))).toBe(true);
    expect(modules.filter(isZod)).toEqual([]);
    expect(modules.filter((url) => isContract(url) && !url.endsWith('/image-type.ts'))).toEqual([]);
  });
});
