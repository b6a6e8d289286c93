import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATION_LIST_FILE, migrationListSource } from '../scripts/migration-list.js';
import { MIGRATIONS } from '../src/generated/migrations.js';

describe(MIGRATION_LIST_FILE, () => {
  it('lists every migration file (run `pnpm generate` if this fails)', () => {
    expect(readFileSync(new URL(`../${MIGRATION_LIST_FILE}`, import.meta.url), 'utf8')).toBe(migrationListSource());
  });

  it('holds a migration with an `up` under each name', () => {
    expect(Object.keys(MIGRATIONS).length).toBeGreaterThanOrEqual(20);
    for (const [name, migration] of Object.entries(MIGRATIONS)) expect(typeof migration.up, name).toBe('function');
  });
});
