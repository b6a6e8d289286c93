import type { V1CommunicationMessage, V1CommunicationThread } from '@vsf/contract';
import { resourceTable } from './resource-tables.js';

export const threadsTable = resourceTable<V1CommunicationThread>('communicationThreads');

export const messagesTable = resourceTable<V1CommunicationMessage>('communicationThreads.messages');
