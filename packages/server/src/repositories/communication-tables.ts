import { V1CommunicationMessage, V1CommunicationThread } from '@vsf/contract';
import { TeamScopedTable } from './team-scoped-table.js';

export const threadsTable = TeamScopedTable.of<V1CommunicationThread>('communication_threads', V1CommunicationThread);

export const messagesTable = TeamScopedTable.of<V1CommunicationMessage>(
  'communication_messages',
  V1CommunicationMessage,
);
