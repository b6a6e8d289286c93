import { defineEndpoint } from '../endpoint.js';
import {
  DeletedRecord,
  dataResponse,
  listQueryShape,
  listResponse,
  QueryBoolean,
  TimestampWithOffset,
} from '../schemas/common.js';
import {
  SocialNetwork,
  SocialPostStatus,
  V1SocialAccount,
  V1SocialAccountCreate,
  V1SocialAccountUpdate,
  V1SocialPost,
  V1SocialPostCreate,
  V1SocialPostUpdate,
} from '../schemas/social-post.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

// Social posts and accounts belong to the `campaigns` scope (spec scope table).
const read = { all: readScopes('campaigns') };
const write = { all: writeScopes('campaigns') };

export const listSocialAccounts = defineEndpoint({
  operationId: 'listSocialAccounts',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-accounts',
  summary: 'List connected social accounts',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialAccounts'], method: 'list' },
  query: z.strictObject({ ...listQueryShape, network: SocialNetwork.optional(), isActive: QueryBoolean.optional() }),
  response: { status: 200, description: 'A page of accounts', schema: listResponse(V1SocialAccount) },
  paginated: true,
});

export const getSocialAccount = defineEndpoint({
  operationId: 'getSocialAccount',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-accounts/{socialAccountId}',
  summary: 'Get a social account',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialAccounts'], method: 'get' },
  params: idParams('socialAccountId'),
  response: { status: 200, description: 'The account', schema: dataResponse(V1SocialAccount) },
  resourceName: 'Social account',
  errors: [404],
});

export const createSocialAccount = defineEndpoint({
  operationId: 'createSocialAccount',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-accounts',
  summary: 'Connect (record) a social account',
  description:
    'Connecting records the account (network and handle): the server runs no OAuth flow and stores no network tokens; the configured social provider decides how posts reach the network (the default outbox keeps them locally). A team has one account per network and handle (409 for a second).',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialAccounts'], method: 'create' },
  body: V1SocialAccountCreate,
  response: { status: 201, description: 'The account', schema: dataResponse(V1SocialAccount) },
  errors: [409],
});

export const updateSocialAccount = defineEndpoint({
  operationId: 'updateSocialAccount',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/social-accounts/{socialAccountId}',
  summary: 'Update a social account',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialAccounts'], method: 'update' },
  params: idParams('socialAccountId'),
  body: V1SocialAccountUpdate,
  response: { status: 200, description: 'The account', schema: dataResponse(V1SocialAccount) },
  resourceName: 'Social account',
  errors: [404, 409],
});

export const deleteSocialAccount = defineEndpoint({
  operationId: 'deleteSocialAccount',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/social-accounts/{socialAccountId}',
  summary: 'Disconnect a social account without posts',
  description:
    'An account with posts is kept with their history (409): set `isActive` to false, or delete its posts first.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialAccounts'], method: 'delete' },
  params: idParams('socialAccountId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Social account',
  errors: [404, 409],
});

export const listSocialPosts = defineEndpoint({
  operationId: 'listSocialPosts',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-posts',
  summary: 'List social posts',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialPosts'], method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    socialAccountId: z.uuid().optional(),
    status: SocialPostStatus.optional(),
    from: TimestampWithOffset.optional().openapi({ description: 'Only posts scheduled at or after this time' }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only posts scheduled before this time' }),
  }),
  response: { status: 200, description: 'A page of posts', schema: listResponse(V1SocialPost) },
  paginated: true,
});

export const getSocialPost = defineEndpoint({
  operationId: 'getSocialPost',
  surface: 'v1',
  method: 'get',
  path: '/marketing/social-posts/{postId}',
  summary: 'Get a social post',
  scopes: read,
  sdk: { namespace: ['marketing', 'socialPosts'], method: 'get' },
  params: idParams('postId'),
  response: { status: 200, description: 'The post', schema: dataResponse(V1SocialPost) },
  resourceName: 'Social post',
  errors: [404],
});

export const createSocialPost = defineEndpoint({
  operationId: 'createSocialPost',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-posts',
  summary: 'Draft or schedule a social post',
  description:
    '`socialAccountId` is one of the team’s active accounts. Each of `mediaUrls` is an `https://` URL or a `/api/media/<uuid>` path of the team’s own media (an asset or photo); anything else is a 400. `scheduledAt` plans the post on the marketing calendar; publishing happens only through `POST /marketing/social-posts/{postId}/publish`.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialPosts'], method: 'create' },
  body: V1SocialPostCreate,
  response: { status: 201, description: 'The post', schema: dataResponse(V1SocialPost) },
});

export const updateSocialPost = defineEndpoint({
  operationId: 'updateSocialPost',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/social-posts/{postId}',
  summary: 'Edit a social post',
  description: 'Same rules as create. A published post is on the network already and cannot be edited (409).',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialPosts'], method: 'update' },
  params: idParams('postId'),
  body: V1SocialPostUpdate,
  response: { status: 200, description: 'The post', schema: dataResponse(V1SocialPost) },
  resourceName: 'Social post',
  errors: [404, 409],
});

export const deleteSocialPost = defineEndpoint({
  operationId: 'deleteSocialPost',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/social-posts/{postId}',
  summary: 'Delete a social post',
  description: 'Deletes the record only; a published post stays on the network.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialPosts'], method: 'delete' },
  params: idParams('postId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Social post',
  errors: [404],
});

export const publishSocialPost = defineEndpoint({
  operationId: 'publishSocialPost',
  surface: 'v1',
  method: 'post',
  path: '/marketing/social-posts/{postId}/publish',
  summary: 'Publish a social post now',
  description:
    'Hands the post to the configured social provider (default `outbox`: the post is recorded in the server’s outbox and goes to no network). Success sets `status: published`, `publishedAt`, `provider` and `providerPostId`; a provider failure keeps the post with `status: failed`, `provider` and the provider’s `error` and still answers 200, so the outcome is always in the response. A failed post can be published again; a published one answers 409, as does a post whose account is inactive.',
  scopes: write,
  sdk: { namespace: ['marketing', 'socialPosts'], method: 'publish' },
  params: idParams('postId'),
  response: { status: 200, description: 'The post with the outcome', schema: dataResponse(V1SocialPost) },
  resourceName: 'Social post',
  errors: [404, 409],
});
