import type { V1Campaign, V1CampaignAudience, V1CampaignContentStep, V1CampaignSend, V1Template } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const templatesTable = new TeamScopedTable<V1Template>(
  'templates',
  ['id', 'teamId', 'name', 'channel', 'subject', 'body', 'htmlBody', 'variables', 'isActive', 'createdAt', 'updatedAt'],
  { variables: 'json' },
);

export const campaignsTable = new TeamScopedTable<V1Campaign>('campaigns', [
  'id',
  'teamId',
  'name',
  'description',
  'status',
  'startsAt',
  'endsAt',
  'createdAt',
  'updatedAt',
]);

export const audiencesTable = new TeamScopedTable<V1CampaignAudience>(
  'campaign_audiences',
  ['id', 'teamId', 'campaignId', 'name', 'filter', 'createdAt', 'updatedAt'],
  { filter: 'json' },
);

export const contentStepsTable = new TeamScopedTable<V1CampaignContentStep>(
  'campaign_content_steps',
  ['id', 'campaignId', 'type', 'name', 'order', 'scheduledAt', 'templateId', 'content', 'createdAt', 'updatedAt'],
  { content: 'json', order: 'number' },
);

export const campaignSendsTable = new TeamScopedTable<V1CampaignSend>(
  'campaign_sends',
  [
    'id',
    'teamId',
    'campaignId',
    'contentStepId',
    'audienceId',
    'channel',
    'status',
    'recipientCount',
    'sentCount',
    'failedCount',
    'skippedCount',
    'createdAt',
    'updatedAt',
  ],
  { recipientCount: 'number', sentCount: 'number', failedCount: 'number', skippedCount: 'number' },
);
