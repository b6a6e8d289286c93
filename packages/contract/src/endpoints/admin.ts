import { defineGroup, defineResource, idParams } from '../define-resource.js';
import { defineEndpoint } from '../endpoint.js';
import {
  AdminKey,
  AdminKeyCreate,
  AdminKeyCreated,
  AdminKeyUpdate,
  AdminTeam,
  AdminTeamCreate,
  AdminTeamUpdate,
} from '../schemas/auth-key.js';
import { dataResponse } from '../schemas/common.js';
import { z } from '../zod.js';

// The admin token authorizes every call, so no operation needs a scope.
const none = { all: [] } as const;
const admin = defineGroup({
  surface: 'admin',
  prefix: '',
  operationPrefix: 'admin',
  scope: { read: none, write: none },
});

export const teams = defineResource(admin, {
  name: 'Team',
  path: '/teams',
  record: AdminTeam,
  createBody: AdminTeamCreate,
  updateBody: AdminTeamUpdate,
  operations: ['create', 'update'],
  create: { summary: 'Create a team (API on by default) with its default event types' },
  update: {
    summary: 'Rename a team or turn its API on or off',
    description: 'Turning the API off answers every key of the team with 403 from the next request on; keys are kept.',
  },
});

export const keys = defineResource(admin, {
  name: 'Key',
  path: '/keys',
  label: 'API key',
  record: AdminKey,
  updateBody: AdminKeyUpdate,
  operations: ['update'],
  update: { summary: 'Rename an API key or change its expiry' },
  actions: {
    revoke: {
      summary: 'Revoke an API key, effective on the next request',
      description: 'Revoking a revoked key keeps its original `revokedAt`.',
      response: 'The revoked key',
    },
  },
});

// Teams and a team's keys are listed whole (an installation has few), and a key is created under its team.
export const adminListTeams = defineEndpoint({
  operationId: 'adminListTeams',
  surface: 'admin',
  method: 'get',
  path: '/teams',
  summary: 'List teams',
  scopes: none,
  sdk: { namespace: teams.sdk, method: 'list' },
  response: { status: 200, description: 'Every team', schema: dataResponse(z.array(AdminTeam)) },
});

export const adminCreateKey = defineEndpoint({
  operationId: 'adminCreateKey',
  surface: 'admin',
  method: 'post',
  path: '/teams/{teamId}/keys',
  summary: 'Create an API key for a team',
  description: 'The full key is in this response only; the server keeps just a hash of its secret.',
  scopes: none,
  sdk: { namespace: keys.sdk, method: 'create' },
  params: idParams('teamId'),
  body: AdminKeyCreate,
  response: { status: 201, description: 'The key, with its secret', schema: dataResponse(AdminKeyCreated) },
  resourceName: teams.label,
});

export const adminListKeys = defineEndpoint({
  operationId: 'adminListKeys',
  surface: 'admin',
  method: 'get',
  path: '/teams/{teamId}/keys',
  summary: "List a team's API keys (never their secrets)",
  scopes: none,
  sdk: { namespace: keys.sdk, method: 'list' },
  params: idParams('teamId'),
  response: { status: 200, description: 'The keys', schema: dataResponse(z.array(AdminKey)) },
  resourceName: teams.label,
});
