import { idParams } from '../define-resource.js';
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

const none = { all: [] } as const;

export const adminCreateTeam = defineEndpoint({
  operationId: 'adminCreateTeam',
  surface: 'admin',
  method: 'post',
  path: '/teams',
  summary: 'Create a team (API on by default) with its default event types',
  scopes: none,
  sdk: { namespace: ['teams'], method: 'create' },
  body: AdminTeamCreate,
  response: { status: 201, description: 'The team', schema: dataResponse(AdminTeam) },
});

export const adminListTeams = defineEndpoint({
  operationId: 'adminListTeams',
  surface: 'admin',
  method: 'get',
  path: '/teams',
  summary: 'List teams',
  scopes: none,
  sdk: { namespace: ['teams'], method: 'list' },
  response: { status: 200, description: 'Every team', schema: dataResponse(z.array(AdminTeam)) },
});

export const adminUpdateTeam = defineEndpoint({
  operationId: 'adminUpdateTeam',
  surface: 'admin',
  method: 'patch',
  path: '/teams/{teamId}',
  summary: 'Rename a team or turn its API on or off',
  description: 'Turning the API off answers every key of the team with 403 from the next request on; keys are kept.',
  scopes: none,
  sdk: { namespace: ['teams'], method: 'update' },
  params: idParams('teamId'),
  body: AdminTeamUpdate,
  response: { status: 200, description: 'The team', schema: dataResponse(AdminTeam) },
  resourceName: 'Team',
});

export const adminCreateKey = defineEndpoint({
  operationId: 'adminCreateKey',
  surface: 'admin',
  method: 'post',
  path: '/teams/{teamId}/keys',
  summary: 'Create an API key for a team',
  description: 'The full key is in this response only; the server keeps just a hash of its secret.',
  scopes: none,
  sdk: { namespace: ['keys'], method: 'create' },
  params: idParams('teamId'),
  body: AdminKeyCreate,
  response: { status: 201, description: 'The key, with its secret', schema: dataResponse(AdminKeyCreated) },
  resourceName: 'Team',
});

export const adminListKeys = defineEndpoint({
  operationId: 'adminListKeys',
  surface: 'admin',
  method: 'get',
  path: '/teams/{teamId}/keys',
  summary: "List a team's API keys (never their secrets)",
  scopes: none,
  sdk: { namespace: ['keys'], method: 'list' },
  params: idParams('teamId'),
  response: { status: 200, description: 'The keys', schema: dataResponse(z.array(AdminKey)) },
  resourceName: 'Team',
});

export const adminUpdateKey = defineEndpoint({
  operationId: 'adminUpdateKey',
  surface: 'admin',
  method: 'patch',
  path: '/keys/{keyId}',
  summary: 'Rename an API key or change its expiry',
  scopes: none,
  sdk: { namespace: ['keys'], method: 'update' },
  params: idParams('keyId'),
  body: AdminKeyUpdate,
  response: { status: 200, description: 'The key', schema: dataResponse(AdminKey) },
  resourceName: 'API key',
});

export const adminRevokeKey = defineEndpoint({
  operationId: 'adminRevokeKey',
  surface: 'admin',
  method: 'post',
  path: '/keys/{keyId}/revoke',
  summary: 'Revoke an API key, effective on the next request',
  description: 'Revoking a revoked key keeps its original `revokedAt`.',
  scopes: none,
  sdk: { namespace: ['keys'], method: 'revoke' },
  params: idParams('keyId'),
  response: { status: 200, description: 'The revoked key', schema: dataResponse(AdminKey) },
  resourceName: 'API key',
});
