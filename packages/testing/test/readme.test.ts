import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { unimplementedTable } from '../src/unimplemented-table.js';

it('the README lists exactly the operations the mock answers 501 (printed here)', () => {
  const table = unimplementedTable();
  console.log(`The mock answers 501 for:\n${table}`);
  const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
  const section = /<!-- unimplemented:start -->\n([\s\S]*?)\n?<!-- unimplemented:end -->/;
  const between = section.exec(readme)?.[1];
  // `VSF_WRITE_README=1 pnpm exec vitest run test/readme.test.ts` rewrites the section after a change.
  if (process.env.VSF_WRITE_README) {
    const block = `<!-- unimplemented:start -->\n${table}\n<!-- unimplemented:end -->`;
    writeFileSync(join(import.meta.dirname, '../README.md'), readme.replace(section, block));
    return;
  }
  expect(between).toBe(table);
});
