import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../scripts/generated-files.js';

describe('src/generated', () => {
  for (const [file, contents] of Object.entries(generatedFiles())) {
    it(`${file} matches the contract (run \`pnpm generate\` if this fails)`, () => {
      expect(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')).toBe(contents);
    });
  }

  it('starts every generated file with a do-not-edit header', () => {
    for (const contents of Object.values(generatedFiles())) expect(contents.split('\n')[0]).toMatch(/Do not edit/);
  });
});
