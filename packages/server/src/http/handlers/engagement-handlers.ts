import type { EngagementEndpoints } from '@vsf/contract';
import { type HandlerMap, listBody } from '../handler.js';

/** Forms and submissions, social events, social posts and accounts, marketing assets and folders. */
export const engagementHandlers: HandlerMap<EngagementEndpoints> = {
  listForms: async ({ auth, query, services }) => listBody(query, await services.forms.list(auth.teamId, query)),
  getForm: async ({ auth, params, services }) => ({ data: await services.forms.get(auth.teamId, params.formId) }),
  createForm: async ({ auth, body, services }) => ({ data: await services.forms.create(auth.teamId, body) }),
  updateForm: async ({ auth, params, body, services }) => ({
    data: await services.forms.update(auth.teamId, params.formId, body),
  }),
  deleteForm: async ({ auth, params, services }) => ({
    data: await services.forms.delete(auth.teamId, params.formId),
  }),
  createFormSubmission: async ({ auth, params, body, services }) => ({
    data: await services.forms.submit(auth.teamId, params.formId, body, auth.scopes),
  }),
  listFormSubmissions: async ({ auth, params, query, services }) =>
    listBody(query, await services.forms.listSubmissions(auth.teamId, params.formId, query)),
  getFormSubmission: async ({ auth, params, services }) => ({
    data: await services.forms.getSubmission(auth.teamId, params.formId, params.submissionId),
  }),

  listSocialEvents: async ({ auth, query, services }) =>
    listBody(query, await services.socialEvents.list(auth.teamId, query)),
  getSocialEvent: async ({ auth, params, services }) => ({
    data: await services.socialEvents.get(auth.teamId, params.eventId),
  }),
  createSocialEvent: async ({ auth, body, services }) => ({
    data: await services.socialEvents.create(auth.teamId, body),
  }),
  updateSocialEvent: async ({ auth, params, body, services }) => ({
    data: await services.socialEvents.update(auth.teamId, params.eventId, body),
  }),
  deleteSocialEvent: async ({ auth, params, services }) => ({
    data: await services.socialEvents.delete(auth.teamId, params.eventId),
  }),
  listRsvpOptions: async ({ auth, params, query, services }) =>
    listBody(query, await services.socialEvents.listOptions(auth.teamId, params.eventId, query)),
  getRsvpOption: async ({ auth, params, services }) => ({
    data: await services.socialEvents.getOption(auth.teamId, params.eventId, params.rsvpOptionId),
  }),
  createRsvpOption: async ({ auth, params, body, services }) => ({
    data: await services.socialEvents.createOption(auth.teamId, params.eventId, body),
  }),
  updateRsvpOption: async ({ auth, params, body, services }) => ({
    data: await services.socialEvents.updateOption(auth.teamId, params.eventId, params.rsvpOptionId, body),
  }),
  deleteRsvpOption: async ({ auth, params, services }) => ({
    data: await services.socialEvents.deleteOption(auth.teamId, params.eventId, params.rsvpOptionId),
  }),
  listSocialEventInvites: async ({ auth, params, query, services }) =>
    listBody(query, await services.socialEvents.listInvites(auth.teamId, params.eventId, query)),
  getSocialEventInvite: async ({ auth, params, services }) => ({
    data: await services.socialEvents.getInvite(auth.teamId, params.eventId, params.inviteId),
  }),
  createSocialEventInvite: async ({ auth, params, body, services }) => ({
    data: await services.socialEvents.createInvite(auth.teamId, params.eventId, body),
  }),
  deleteSocialEventInvite: async ({ auth, params, services }) => ({
    data: await services.socialEvents.deleteInvite(auth.teamId, params.eventId, params.inviteId),
  }),
  listSocialEventRsvps: async ({ auth, params, query, services }) =>
    listBody(query, await services.socialEvents.listRsvps(auth.teamId, params.eventId, query)),
  getSocialEventRsvp: async ({ auth, params, services }) => ({
    data: await services.socialEvents.getRsvp(auth.teamId, params.eventId, params.rsvpId),
  }),
  createSocialEventRsvp: async ({ auth, params, body, services }) => ({
    data: await services.socialEvents.createRsvp(auth.teamId, params.eventId, body),
  }),
  updateSocialEventRsvp: async ({ auth, params, body, services }) => ({
    data: await services.socialEvents.updateRsvp(auth.teamId, params.eventId, params.rsvpId, body),
  }),

  listSocialAccounts: async ({ auth, query, services }) =>
    listBody(query, await services.socialPosts.listAccounts(auth.teamId, query)),
  getSocialAccount: async ({ auth, params, services }) => ({
    data: await services.socialPosts.getAccount(auth.teamId, params.socialAccountId),
  }),
  createSocialAccount: async ({ auth, body, services }) => ({
    data: await services.socialPosts.createAccount(auth.teamId, body),
  }),
  updateSocialAccount: async ({ auth, params, body, services }) => ({
    data: await services.socialPosts.updateAccount(auth.teamId, params.socialAccountId, body),
  }),
  deleteSocialAccount: async ({ auth, params, services }) => ({
    data: await services.socialPosts.deleteAccount(auth.teamId, params.socialAccountId),
  }),
  listSocialPosts: async ({ auth, query, services }) =>
    listBody(query, await services.socialPosts.listPosts(auth.teamId, query)),
  getSocialPost: async ({ auth, params, services }) => ({
    data: await services.socialPosts.getPost(auth.teamId, params.postId),
  }),
  createSocialPost: async ({ auth, body, services }) => ({
    data: await services.socialPosts.createPost(auth.teamId, body),
  }),
  updateSocialPost: async ({ auth, params, body, services }) => ({
    data: await services.socialPosts.updatePost(auth.teamId, params.postId, body),
  }),
  deleteSocialPost: async ({ auth, params, services }) => ({
    data: await services.socialPosts.deletePost(auth.teamId, params.postId),
  }),
  publishSocialPost: async ({ auth, params, services }) => ({
    data: await services.socialPosts.publish(auth.teamId, params.postId),
  }),

  listMarketingAssets: async ({ auth, query, services }) =>
    listBody(query, await services.marketingAssets.list(auth.teamId, query)),
  getMarketingAsset: async ({ auth, params, services }) => ({
    data: await services.marketingAssets.get(auth.teamId, params.assetId),
  }),
  createMarketingAsset: async ({ auth, body, services }) => ({
    data: await services.marketingAssets.create(auth.teamId, body),
  }),
  updateMarketingAsset: async ({ auth, params, body, services }) => ({
    data: await services.marketingAssets.update(auth.teamId, params.assetId, body),
  }),
  deleteMarketingAsset: async ({ auth, params, services }) => ({
    data: await services.marketingAssets.delete(auth.teamId, params.assetId),
  }),
  listAssetFolders: async ({ auth, query, services }) =>
    listBody(query, await services.marketingAssets.listFolders(auth.teamId, query)),
  getAssetFolder: async ({ auth, params, services }) => ({
    data: await services.marketingAssets.getFolder(auth.teamId, params.folderId),
  }),
  createAssetFolder: async ({ auth, body, services }) => ({
    data: await services.marketingAssets.createFolder(auth.teamId, body),
  }),
  updateAssetFolder: async ({ auth, params, body, services }) => ({
    data: await services.marketingAssets.updateFolder(auth.teamId, params.folderId, body),
  }),
  deleteAssetFolder: async ({ auth, params, services }) => ({
    data: await services.marketingAssets.deleteFolder(auth.teamId, params.folderId),
  }),
};
