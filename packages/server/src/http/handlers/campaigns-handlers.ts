import type { CampaignsEndpoints } from '@vsf/contract';
import { type HandlerMap, listBody } from '../handler.js';

/** Campaigns with their audiences, content steps and sends; templates; the marketing calendar. */
export const campaignsHandlers: HandlerMap<CampaignsEndpoints> = {
  listCampaigns: async ({ auth, query, services }) =>
    listBody(query, await services.campaigns.list(auth.teamId, query)),
  getCampaign: async ({ auth, params, services }) => ({
    data: await services.campaigns.get(auth.teamId, params.campaignId),
  }),
  createCampaign: async ({ auth, body, services }) => ({ data: await services.campaigns.create(auth.teamId, body) }),
  updateCampaign: async ({ auth, params, body, services }) => ({
    data: await services.campaigns.update(auth.teamId, params.campaignId, body),
  }),
  deleteCampaign: async ({ auth, params, services }) => ({
    data: await services.campaigns.delete(auth.teamId, params.campaignId),
  }),

  listCampaignAudiences: async ({ auth, params, query, services }) =>
    listBody(query, await services.campaigns.listAudiences(auth.teamId, params.campaignId, query)),
  getCampaignAudience: async ({ auth, params, services }) => ({
    data: await services.campaigns.getAudience(auth.teamId, params.campaignId, params.audienceId),
  }),
  listCampaignAudienceMembers: async ({ auth, params, query, services }) =>
    listBody(
      query,
      await services.campaigns.listAudienceMembers(auth.teamId, params.campaignId, params.audienceId, query),
    ),
  createCampaignAudience: async ({ auth, params, body, services }) => ({
    data: await services.campaigns.createAudience(auth.teamId, params.campaignId, body),
  }),
  updateCampaignAudience: async ({ auth, params, body, services }) => ({
    data: await services.campaigns.updateAudience(auth.teamId, params.campaignId, params.audienceId, body),
  }),
  deleteCampaignAudience: async ({ auth, params, services }) => ({
    data: await services.campaigns.deleteAudience(auth.teamId, params.campaignId, params.audienceId),
  }),

  listCampaignContentSteps: async ({ auth, params, query, services }) =>
    listBody(query, await services.campaigns.listSteps(auth.teamId, params.campaignId, query)),
  getCampaignContentStep: async ({ auth, params, services }) => ({
    data: await services.campaigns.getStep(auth.teamId, params.campaignId, params.contentStepId),
  }),
  createCampaignContentStep: async ({ auth, params, body, services }) => ({
    data: await services.campaigns.createStep(auth, params.campaignId, body),
  }),
  updateCampaignContentStep: async ({ auth, params, body, services }) => ({
    data: await services.campaigns.updateStep(auth.teamId, params.campaignId, params.contentStepId, body),
  }),
  deleteCampaignContentStep: async ({ auth, params, services }) => ({
    data: await services.campaigns.deleteStep(auth.teamId, params.campaignId, params.contentStepId),
  }),

  listCampaignSends: async ({ auth, params, query, services }) =>
    listBody(query, await services.campaigns.listSends(auth.teamId, params.campaignId, query)),
  getCampaignSend: async ({ auth, params, services }) => ({
    data: await services.campaigns.getSend(auth.teamId, params.campaignId, params.sendId),
  }),
  createCampaignSend: async ({ auth, params, body, services }) => ({
    data: await services.campaigns.createSend(auth.teamId, params.campaignId, body),
  }),

  listTemplates: async ({ auth, query, services }) =>
    listBody(query, await services.templates.list(auth.teamId, query)),
  getTemplate: async ({ auth, params, services }) => ({
    data: await services.templates.get(auth.teamId, params.templateId),
  }),
  createTemplate: async ({ auth, body, services }) => ({ data: await services.templates.create(auth.teamId, body) }),
  updateTemplate: async ({ auth, params, body, services }) => ({
    data: await services.templates.update(auth.teamId, params.templateId, body),
  }),
  deleteTemplate: async ({ auth, params, services }) => ({
    data: await services.templates.delete(auth.teamId, params.templateId),
  }),

  getMarketingCalendar: async ({ auth, query, services }) => ({
    data: await services.marketingCalendar.entries(auth, query),
  }),
};
