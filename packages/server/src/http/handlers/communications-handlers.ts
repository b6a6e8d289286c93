import type { CommunicationsEndpoints } from '@vsf/contract';
import type { SpecialHandlers } from '../handler.js';

/** Threads and messages. */
export const communicationsHandlers = {
  sendCommunicationMessage: async ({ auth, params, services }) => ({
    data: await services.resources['communicationThreads.messages'].send(
      auth.teamId,
      params.threadId,
      params.messageId,
    ),
  }),
} satisfies SpecialHandlers<CommunicationsEndpoints>;
