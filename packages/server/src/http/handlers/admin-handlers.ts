import type { AdminEndpoints } from '@vsf/contract';
import type { HandlerMap } from '../handler.js';

/** `/admin/v1`: the dashboard's backend, authenticated by the admin token. */
export const adminHandlers: HandlerMap<AdminEndpoints> = {
  adminCreateTeam: async ({ body, services }) => ({ data: await services.teams.createTeam(body) }),
  adminListTeams: async ({ services }) => ({ data: await services.teams.listTeams() }),
  adminUpdateTeam: async ({ params, body, services }) => ({
    data: await services.teams.updateTeam(params.teamId, body),
  }),
  adminCreateKey: async ({ params, body, services }) => ({ data: await services.teams.createKey(params.teamId, body) }),
  adminListKeys: async ({ params, services }) => ({ data: await services.teams.listKeys(params.teamId) }),
  adminUpdateKey: async ({ params, body, services }) => ({ data: await services.teams.updateKey(params.keyId, body) }),
  adminRevokeKey: async ({ params, services }) => ({ data: await services.teams.revokeKey(params.keyId) }),
};
