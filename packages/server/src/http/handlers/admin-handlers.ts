import type { AdminEndpoints } from '@vsf/contract';
import { type HandlerMap, listBody } from '../handler.js';

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
  adminCreateMember: async ({ params, body, services }) => ({
    data: await services.members.create(params.teamId, body),
  }),
  adminListMembers: async ({ params, query, services }) =>
    listBody(query, await services.members.list(params.teamId, query)),
  adminUpdateMember: async ({ params, body, services }) => ({
    data: await services.members.update(params.teamId, params.memberId, body),
  }),
  adminDeleteMember: async ({ params, services }) => ({
    data: await services.members.delete(params.teamId, params.memberId),
  }),
  adminListGrants: async ({ params, query, services }) =>
    listBody(query, await services.members.listGrants(params.teamId, query)),
  adminRevokeGrant: async ({ params, services }) => ({
    data: await services.members.revokeGrant(params.teamId, params.grantId),
  }),
};
