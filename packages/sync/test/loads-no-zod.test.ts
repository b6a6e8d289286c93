import { describe, expect, it } from 'vitest';
import { modulesLoadedBy } from '../../../scripts/test-support/modules-loaded-by.js';

const packageDir = new URL('..', import.meta.url).pathname;

describe('loading the sync', () => {
  it('loads no zod and no contract module: its resources are a generated table', () => {
    const modules = modulesLoadedBy(
      packageDir,
      "const sync = await import('@vsf/sync'); if (sync.syncableResources().length < 10) throw new Error('no resources');",
    );
    // The hook saw the sync and the SDK it pages through, so an empty list cannot pass.
    expect(modules.some((url) => url.endsWith('/packages/sync/src/index.ts'))).toBe(true);
    expect(modules.some((url) => url.endsWith('/packages/sync/src/generated/resources.ts'))).toBe(true);
    expect(modules.filter((url) => /[/@]zod[@/]/.test(url))).toEqual([]);
    expect(
      modules.filter(
        (url) =>
          (url.includes('/packages/contract/') || url.includes('/@vsf/contract/')) && !url.endsWith('/image-type.ts'),
      ),
    ).toEqual([]);
  });
});
