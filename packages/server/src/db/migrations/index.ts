import { createHash } from 'node:crypto';
import { recordColumns, standardResources } from '@vsf/contract';
import type { Knex } from 'knex';
import type { z } from 'zod';
import * as core from './001-core.js';
import * as facility from './002-facility.js';
import * as appointments from './003-appointments.js';
import * as idempotency from './010-idempotency.js';
import * as communications from './011-communications.js';
import * as campaigns from './012-campaigns.js';
import * as engagement from './013-engagement.js';
import * as unloggedRateLimits from './020-unlogged-rate-limits.js';
import * as parkingIntegrity from './021-parking-integrity.js';
import * as keyChangeNotify from './022-key-change-notify.js';
import * as teamRowCounts from './023-team-row-counts.js';
import * as teamEvents from './024-team-events.js';
import * as webhooks from './025-webhooks.js';
import * as idempotencyClaim from './026-idempotency-claim.js';
import * as idempotencyResponseText from './027-idempotency-response-text.js';
import * as draftMessageRecipient from './028-draft-message-recipient.js';
import * as webhookStanding from './029-webhook-standing.js';
import * as assistantConnector from './030-assistant-connector.js';
import * as teamEventNotify from './031-team-event-notify.js';
import * as grantChangeNotify from './032-grant-change-notify.js';
import { createNotifyFunction, dropNotifyFunction } from './notify-triggers.js';
import { recordEventFunction } from './record-event-function.js';
import { addResourceColumns, declaredColumns } from './resource-columns.js';
import { countTeamRows, createResourceTable, recordTeamEvents } from './resource-table.js';
import { createTeamTable, timestamps, ts } from './team-table.js';

/** Ordered migrations, shared by PGlite and PostgreSQL. Append; never edit one that has shipped. */
const migrations: Record<string, Knex.Migration> = {
  '001-core': core,
  '002-facility': facility,
  '003-appointments': appointments,
  '010-idempotency': idempotency,
  '011-communications': communications,
  '012-campaigns': campaigns,
  '013-engagement': engagement,
  '020-unlogged-rate-limits': unloggedRateLimits,
  '021-parking-integrity': parkingIntegrity,
  '022-key-change-notify': keyChangeNotify,
  '023-team-row-counts': teamRowCounts,
  '024-team-events': teamEvents,
  '025-webhooks': webhooks,
  '026-idempotency-claim': idempotencyClaim,
  '027-idempotency-response-text': idempotencyResponseText,
  '030-assistant-connector': assistantConnector,
  '028-draft-message-recipient': draftMessageRecipient,
  '029-webhook-standing': webhookStanding,
  '031-team-event-notify': teamEventNotify,
  '032-grant-change-notify': grantChangeNotify,
};

/** Serves migrations from code so they run the same from source (tsx, vitest) and from the built package. */
export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name] as Knex.Migration,
};

/** Changes whenever any migration's code does: tests key their cached, migrated database on it. */
export function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of Object.keys(migrations).sort()) {
    hash.update(`${name}\n${String(migrations[name]?.up)}\n`);
    // What a migration hands a shared helper to write (022's and 032's notify functions) is part of its code.
    for (const [key, value] of Object.entries(migrations[name] ?? {}))
      if (typeof value !== 'function') hash.update(`${key}=${JSON.stringify(value)}\n`);
  }
  // The shared table shape is part of every migration that calls it, and so is the SQL the helpers write.
  for (const helper of [
    createTeamTable,
    timestamps,
    ts,
    countTeamRows,
    recordTeamEvents,
    createResourceTable,
    createNotifyFunction,
    dropNotifyFunction,
    recordEventFunction,
    declaredColumns,
    addResourceColumns,
  ])
    hash.update(String(helper));
  // A migration that is one call on a declaration (`createResourceTable(knex, keyBoxes)`) changes with it.
  for (const resource of standardResources().values()) {
    const record = resource.endpoints.get?.response.schema as { shape?: { data?: z.ZodType } } | undefined;
    if (record?.shape?.data) hash.update(JSON.stringify(recordColumns(record.shape.data)));
  }
  return hash.digest('hex').slice(0, 16);
}
