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
import { AdminGrant, AdminMember, AdminMemberCreate, AdminMemberUpdate } from '../schemas/team-member.js';
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

/** People of a team who sign in to the assistant connector (OAuth) and grant assistants their scopes. */
export const members = defineResource(teams, {
  name: 'Member',
  path: '/members',
  label: 'Member',
  record: AdminMember,
  createBody: AdminMemberCreate,
  updateBody: AdminMemberUpdate,
  operations: ['list', 'create', 'update', 'delete'],
  list: { description: 'Oldest first. Passwords are never returned.' },
  create: {
    summary: 'Add a team member who can sign in to the assistant connector',
    description:
      'The member signs in with this email and password at the connector’s OAuth sign-in and may grant an assistant at most `scopes`. An email already in use (in any team) is a 409.',
    errors: [409],
  },
  update: { summary: 'Change a member’s password or the scopes they may grant', errors: [409] },
  delete: {
    summary: 'Remove a member',
    description: 'Every grant the member gave ends with it: their assistants’ next request is refused (401).',
  },
});

/** What members allowed assistants; revoking one ends its tokens on the next request, on every instance. */
export const grants = defineResource(teams, {
  name: 'Grant',
  path: '/grants',
  label: 'Grant',
  record: AdminGrant,
  operations: ['list'],
  list: { description: 'Newest first, revoked grants included (with `revokedAt`).' },
  actions: {
    revoke: {
      summary: 'Revoke an assistant’s grant, effective on its next request',
      description:
        'Its access and refresh tokens stop working at once; revoking a revoked grant keeps its `revokedAt`.',
      response: 'The revoked grant',
    },
  },
});
