import type { CommunicationsEndpoints } from '@vsf/contract';
import { type HandlerMap, listBody } from '../handler.js';

/** Threads and messages. */
export const communicationsHandlers: HandlerMap<CommunicationsEndpoints> = {
  listCommunicationThreads: async ({ auth, query, services }) =>
    listBody(query, await services.communications.listThreads(auth.teamId, query)),
  getCommunicationThread: async ({ auth, params, services }) => ({
    data: await services.communications.getThread(auth.teamId, params.threadId),
  }),
  createCommunicationThread: async ({ auth, body, services }) => ({
    data: await services.communications.createThread(auth.teamId, body),
  }),
  updateCommunicationThread: async ({ auth, params, body, services }) => ({
    data: await services.communications.updateThread(auth.teamId, params.threadId, body),
  }),
  listCommunicationMessages: async ({ auth, params, query, services }) =>
    listBody(query, await services.communications.listMessages(auth.teamId, params.threadId, query)),
  createCommunicationMessage: async ({ auth, params, body, services }) => ({
    data: await services.communications.createMessage(auth.teamId, params.threadId, body),
  }),
  getCommunicationMessage: async ({ auth, params, services }) => ({
    data: await services.communications.getMessage(auth.teamId, params.threadId, params.messageId),
  }),
  updateCommunicationMessage: async ({ auth, params, body, services }) => ({
    data: await services.communications.updateMessage(auth.teamId, params.threadId, params.messageId, body),
  }),
  deleteCommunicationMessage: async ({ auth, params, services }) => ({
    data: await services.communications.deleteMessage(auth.teamId, params.threadId, params.messageId),
  }),
  sendCommunicationMessage: async ({ auth, params, services }) => ({
    data: await services.communications.sendMessage(auth.teamId, params.threadId, params.messageId),
  }),
};
