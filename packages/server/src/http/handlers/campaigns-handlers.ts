import type { CampaignsEndpoints } from '@vsf/contract';
import { listBody, type SpecialHandlers } from '../handler.js';

/** Campaigns with their audiences, content steps and sends; templates; the marketing calendar. */
export const campaignsHandlers = {
  listCampaignAudienceMembers: async ({ auth, params, query, services }) =>
    listBody(
      query,
      await services.resources['marketing.campaigns.audiences'].listMembers(
        auth.teamId,
        params.campaignId,
        params.audienceId,
        query,
      ),
    ),
  createCampaignContentStep: async ({ auth, params, body, services }) => ({
    data: await services.resources['marketing.campaigns.content'].createStep(auth, params.campaignId, body),
  }),

  getMarketingCalendar: async ({ auth, query, services }) => ({
    data: await services.marketingCalendar.entries(auth, query),
  }),
} satisfies SpecialHandlers<CampaignsEndpoints>;
