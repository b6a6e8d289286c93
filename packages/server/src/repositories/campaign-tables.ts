import type { V1CampaignAudience, V1CampaignContentStep, V1CampaignSend, V1Template } from '@vsf/contract';
import { resourceTable } from './resource-tables.js';

export const templatesTable = resourceTable<V1Template>('marketing.templates');

export const audiencesTable = resourceTable<V1CampaignAudience>('marketing.campaigns.audiences');

export const contentStepsTable = resourceTable<V1CampaignContentStep>('marketing.campaigns.content');

export const campaignSendsTable = resourceTable<V1CampaignSend>('marketing.campaigns.sends');
