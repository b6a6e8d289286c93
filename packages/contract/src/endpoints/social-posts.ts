import { defineResource } from '../define-resource.js';
import { TimestampWithOffset } from '../schemas/common.js';
import * as socialPost from '../schemas/social-post.js';
import { z } from '../zod.js';
import { marketing } from './groups.js';

export const accounts = defineResource(marketing, {
  name: 'SocialAccount',
  path: '/social-accounts',
  // Social posts and accounts belong to the `campaigns` scope (spec scope table).
  scope: 'campaigns',
  ...socialPost.socialAccountTable,
  list: { summary: 'List connected social accounts' },
  create: {
    summary: 'Connect (record) a social account',
    description:
      'Connecting records the account (network and handle): the server runs no OAuth flow and stores no network tokens; the configured social provider decides how posts reach the network (the default outbox keeps them locally). A team has one account per network and handle (409 for a second).',
    errors: [409],
  },
  update: { errors: [409] },
  delete: {
    summary: 'Disconnect a social account without posts',
    description:
      'An account with posts is kept with their history (409): set `isActive` to false, or delete its posts first.',
    inUse: 'The account has posts; set isActive to false or delete its posts first',
  },
});

export const posts = defineResource(marketing, {
  name: 'SocialPost',
  path: '/social-posts',
  id: 'postId',
  scope: 'campaigns',
  record: socialPost.V1SocialPost,
  createBody: socialPost.V1SocialPostCreate,
  updateBody: socialPost.V1SocialPostUpdate,
  filters: {
    socialAccountId: z.uuid().optional(),
    status: socialPost.SocialPostStatus.optional(),
    from: TimestampWithOffset.optional().openapi({ description: 'Only posts scheduled at or after this time' }),
    to: TimestampWithOffset.optional().openapi({ description: 'Only posts scheduled before this time' }),
  },
  create: {
    summary: 'Draft or schedule a social post',
    description:
      '`socialAccountId` is one of the team’s active accounts. Each of `mediaUrls` is an `https://` URL or a `/api/media/<uuid>` path of the team’s own media (an asset or photo); anything else is a 400. `scheduledAt` plans the post on the marketing calendar; publishing happens only through `POST /marketing/social-posts/{postId}/publish`.',
  },
  update: {
    summary: 'Edit a social post',
    description: 'Same rules as create. A published post is on the network already and cannot be edited (409).',
    errors: [409],
  },
  delete: { description: 'Deletes the record only; a published post stays on the network.' },
  actions: {
    publish: {
      summary: 'Publish a social post now',
      description:
        'Hands the post to the configured social provider (default `outbox`: the post is recorded in the server’s outbox and goes to no network). Success sets `status: published`, `publishedAt`, `provider` and `providerPostId`; a provider failure keeps the post with `status: failed`, `provider` and the provider’s `error` and still answers 200, so the outcome is always in the response. A failed post can be published again; a published one answers 409, as does a post whose account is inactive.',
      response: 'The post with the outcome',
      errors: [409],
    },
  },
});
