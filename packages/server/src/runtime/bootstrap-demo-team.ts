import { ALL_SCOPES } from '@vsf/contract';
import type { Services } from '../services/index.js';

export interface DemoCredentials {
  teamId: string;
  key: string;
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
