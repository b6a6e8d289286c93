import { type ValidationDetail, validationFailed } from '../errors/api-http-error.js';
import type { Executor, TeamScopedTable } from '../repositories/team-scoped-table.js';

export interface Reference {
  path: string;
  id: string | null | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: any team table will do; only `exists` is used.
  table: TeamScopedTable<any>;
  resource: string;
}

/**
 * Every id a body points at must be one of the team's own records (another team's reads as missing);
 * all misses are reported together as one 400.
 */
export async function checkReferences(db: Executor, teamId: string, references: Reference[]): Promise<void> {
  const problems: ValidationDetail[] = [];
  for (const ref of references) {
    if (ref.id == null) continue;
    if (!(await ref.table.exists(db, teamId, ref.id)))
      problems.push({ path: ref.path, message: `${ref.resource} not found` });
  }
  if (problems.length > 0) throw validationFailed(problems);
}
