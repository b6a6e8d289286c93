import type { V1CommunicationMessage, V1CommunicationThread } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const threadsTable = new TeamScopedTable<V1CommunicationThread>('communication_threads', [
  'id',
  'teamId',
  'customerId',
  'channel',
  'subject',
  'lastMessageAt',
  'createdAt',
  'updatedAt',
]);

export const messagesTable = new TeamScopedTable<V1CommunicationMessage>(
  'communication_messages',
  [
    'id',
    'teamId',
    'threadId',
    'customerId',
    'channel',
    'direction',
    'from',
    'to',
    'body',
    'subject',
    'htmlBody',
    'textBody',
    'mediaUrls',
    'status',
    'provider',
    'providerMessageSid',
    'error',
    'campaignSendId',
    'sentAt',
    'createdAt',
    'updatedAt',
  ],
  { mediaUrls: 'json' },
);
