import { ALL_SCOPES } from '@vsf/contract';
import type { Services } from '../services/index.js';

export interface DemoCredentials {
  teamId: string;
  key: string;
}

/**
 * Whether `vsf-server start` creates the demo team on a brand-new database. An all-scope key printed at
 * start is a convenience on the embedded database (a developer's machine) and a liability on PostgreSQL
 * (a deployment, whose logs are shipped and kept): there it happens only when asked (`--demo`,
 * `VSF_DEMO=1`). `--no-demo` / `VSF_DEMO=0` turn it off on the embedded database too.
 */
export function wantsDemoTeam(requested: boolean | undefined, usesPostgres: boolean): boolean {
  return requested ?? !usesPostgres;
}

/**
 * On a brand-new database, creates a demo team and a key with every scope so a first `pnpm start`
 * is usable at once. Returns nothing once any team exists, so later starts never print a secret.
 */
export async function bootstrapDemoTeam(services: Services): Promise<DemoCredentials | undefined> {
  if ((await services.teams.countTeams()) > 0) return undefined;
  const team = await services.teams.createTeam({ name: 'Demo team' });
  const created = await services.teams.createKey(team.id, { name: 'Demo key (all scopes)', scopes: [...ALL_SCOPES] });
  return { teamId: team.id, key: created.key };
}
