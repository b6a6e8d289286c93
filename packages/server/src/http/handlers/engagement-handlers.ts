import type { EngagementEndpoints } from '@vsf/contract';
import type { SpecialHandlers } from '../handler.js';

/** Forms and submissions, social events, social posts and accounts, marketing assets and folders. */
export const engagementHandlers = {
  createFormSubmission: async ({ auth, params, body, services }) => ({
    data: await services.resources['marketing.forms'].submit(auth.teamId, params.formId, body, auth.scopes),
  }),
  publishSocialPost: async ({ auth, params, services }) => ({
    data: await services.resources['marketing.socialPosts'].publish(auth.teamId, params.postId),
  }),
} satisfies SpecialHandlers<EngagementEndpoints>;
