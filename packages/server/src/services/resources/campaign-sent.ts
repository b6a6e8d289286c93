import type { V1CampaignSend } from '@vsf/contract';
import { conflict } from '../../errors/api-http-error.js';
import { campaignSendsTable } from '../../repositories/tables.js';
import type { Executor } from '../../repositories/team-scoped-table.js';

/**
 * A campaign, audience or step a send used stays as the record of what customers received: its delete
 * (or edit) is a 409 with `message`.
 */
export async function refuseIfSent(
  db: Executor,
  teamId: string,
  field: 'campaignId' | 'audienceId' | 'contentStepId',
  id: string,
  message: string,
): Promise<void> {
  const send = await campaignSendsTable
    .scoped(db, teamId)
    .where(campaignSendsTable.column(field satisfies keyof V1CampaignSend), id)
    .first('id');
  if (send) throw conflict(message);
}
