import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LEAN_START_MS, MAX_SEMI_SPACE_MB } from './lean-start.js';

const MB = 1024 * 1024;
const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const modulePath = (name: string) => JSON.stringify(fileURLToPath(new URL(`./${name}.ts`, import.meta.url)));

/**
 * Runs `setup`, then a churn of objects that outlive a scavenge or two, as a sync's pages do (`keep` of
 * them at a time), in a process of its own: V8's flags are the process's. Returns the young generation's
 * size (both semi-spaces) before and after the churn, and the old space's largest size during it.
 */
function churn(setup: string, keep = 8): { youngBefore: number; youngAfter: number; oldPeak: number } {
  const script = join(mkdtempSync(join(tmpdir(), 'vsf-lean-')), 'churn.mts');
  writeFileSync(
    script,
    `import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
     import { capYoungGeneration, youngGenerationBytes } from ${modulePath('young-generation-cap')};
     import { collectStartupGarbage, leanStart, LEAN_START_MS } from ${modulePath('lean-start')};
     const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size;
     ${setup}
     const youngBefore = youngGenerationBytes();
     let oldPeak = 0;
     const live = [];
     for (let i = 0; i < 4000; i++) {
       live.push(Array.from({ length: 2000 }, (_, j) => ({ i, j })));
       if (live.length > ${keep}) live.shift();
       oldPeak = Math.max(oldPeak, oldSpace());
       if (i % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
     }
     process.stdout.write(JSON.stringify({ youngBefore, youngAfter: youngGenerationBytes(), oldPeak }));`,
  );
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: packageDir, encoding: 'utf8' }));
}

describe('capYoungGeneration', () => {
  it('lets the young generation grow up to the cap, and no further', () => {
    // Without a cap the same churn grows it to V8's limit, 16 MB a semi-space.
    expect(churn('').youngAfter).toBeGreaterThan(8 * MB);
    expect(churn('capYoungGeneration(2);').youngAfter).toBe(2 * 2 * MB);
  });

  it('holds a young generation already past the cap where it is', () => {
    const { youngBefore, youngAfter } = churn('capYoungGeneration(0.5);');
    expect(youngBefore).toBeGreaterThan(MB);
    expect(youngAfter).toBe(youngBefore);
  });

  it('is what a vsf process grows to once its lean start is over', () => {
    expect(LEAN_START_MS).toBeLessThan(2000);
    const afterLeanStart = 'leanStart(); await new Promise((resolve) => setTimeout(resolve, LEAN_START_MS + 100));';
    expect(churn(afterLeanStart).youngAfter).toBe(2 * MAX_SEMI_SPACE_MB * MB);
  });
});

describe('collectStartupGarbage', () => {
  it('keeps the old generation near what is live for the rest of the run', () => {
    // A young generation that does not grow promotes most of the churn, as a capped one does a sync's pages.
    const promoting = "setFlagsFromString('--semi-space-growth-factor=1'); collectStartupGarbage();";
    const sync = churn(promoting, 30).oldPeak;
    const v8Default = churn(`${promoting} setFlagsFromString('--heap-growing-percent=0');`, 30).oldPeak;
    expect(sync).toBeLessThan(v8Default * 0.6);
  });
});
