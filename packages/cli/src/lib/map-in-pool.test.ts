import { describe, expect, it } from 'vitest';
import { mapInPool } from './map-in-pool.js';

describe('mapInPool', () => {
  it('answers in the items’ order with at most `pool` under way at once', async () => {
    let running = 0;
    let most = 0;
    const answers = await mapInPool([50, 10, 30, 0, 20, 5, 40], 3, async (ms) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running--;
      return ms * 2;
    });
    expect(answers).toEqual([100, 20, 60, 0, 40, 10, 80]);
    expect(most).toBe(3);
    expect(await mapInPool([], 3, async () => 1)).toEqual([]);
  });

  it('fails with the first failure', async () => {
    await expect(
      mapInPool([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two');
        return n;
      }),
    ).rejects.toThrow('two');
  });
});
