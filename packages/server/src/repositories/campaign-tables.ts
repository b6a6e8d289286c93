import { V1CampaignAudience, V1CampaignContentStep, V1CampaignSend, V1Template } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const templatesTable = TeamScopedTable.of<V1Template>('templates', V1Template);

export const audiencesTable = TeamScopedTable.of<V1CampaignAudience>('campaign_audiences', V1CampaignAudience);

export const contentStepsTable = TeamScopedTable.of<V1CampaignContentStep>(
  'campaign_content_steps',
  V1CampaignContentStep,
);

export const campaignSendsTable = TeamScopedTable.of<V1CampaignSend>('campaign_sends', V1CampaignSend);
