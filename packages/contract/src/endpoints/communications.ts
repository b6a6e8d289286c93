import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse } from '../schemas/common.js';
import {
  CommunicationChannel,
  MessageStatus,
  V1CommunicationMessage,
  V1CommunicationMessageCreate,
  V1CommunicationMessageUpdate,
  V1CommunicationThread,
  V1CommunicationThreadCreate,
  V1CommunicationThreadUpdate,
} from '../schemas/communication.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('communications') };
const write = { all: writeScopes('communications') };
const threads = ['communicationThreads'] as const;
const messages = ['communicationThreads', 'messages'] as const;

export const listCommunicationThreads = defineEndpoint({
  operationId: 'listCommunicationThreads',
  surface: 'v1',
  method: 'get',
  path: '/communication-threads',
  summary: 'List communication threads',
  scopes: read,
  sdk: { namespace: threads, method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    customerId: z.uuid().optional(),
    channel: CommunicationChannel.optional(),
  }),
  response: { status: 200, description: 'A page of threads', schema: listResponse(V1CommunicationThread) },
  paginated: true,
});

export const getCommunicationThread = defineEndpoint({
  operationId: 'getCommunicationThread',
  surface: 'v1',
  method: 'get',
  path: '/communication-threads/{threadId}',
  summary: 'Get a communication thread',
  scopes: read,
  sdk: { namespace: threads, method: 'get' },
  params: idParams('threadId'),
  response: { status: 200, description: 'The thread', schema: dataResponse(V1CommunicationThread) },
  resourceName: 'Thread',
  errors: [404],
});

export const createCommunicationThread = defineEndpoint({
  operationId: 'createCommunicationThread',
  surface: 'v1',
  method: 'post',
  path: '/communication-threads',
  summary: 'Start a thread with a customer',
  description: 'A thread is one channel (`sms` or `email`) with one customer; its messages go to that customer.',
  scopes: write,
  sdk: { namespace: threads, method: 'create' },
  body: V1CommunicationThreadCreate,
  response: { status: 201, description: 'The thread', schema: dataResponse(V1CommunicationThread) },
});

export const updateCommunicationThread = defineEndpoint({
  operationId: 'updateCommunicationThread',
  surface: 'v1',
  method: 'patch',
  path: '/communication-threads/{threadId}',
  summary: 'Change a thread’s subject',
  scopes: write,
  sdk: { namespace: threads, method: 'update' },
  params: idParams('threadId'),
  body: V1CommunicationThreadUpdate,
  response: { status: 200, description: 'The thread', schema: dataResponse(V1CommunicationThread) },
  resourceName: 'Thread',
  errors: [404],
});

export const listCommunicationMessages = defineEndpoint({
  operationId: 'listCommunicationMessages',
  surface: 'v1',
  method: 'get',
  path: '/communication-threads/{threadId}/messages',
  summary: 'List a thread’s messages',
  scopes: read,
  sdk: { namespace: messages, method: 'list' },
  params: idParams('threadId'),
  query: z.strictObject({ ...listQueryShape, status: MessageStatus.optional() }),
  response: { status: 200, description: 'A page of messages', schema: listResponse(V1CommunicationMessage) },
  paginated: true,
  resourceName: 'Thread',
  errors: [404],
});

export const createCommunicationMessage = defineEndpoint({
  operationId: 'createCommunicationMessage',
  surface: 'v1',
  method: 'post',
  path: '/communication-threads/{threadId}/messages',
  summary: 'Write a message, as a draft or sent now',
  description:
    'Stores an outbound message to the thread’s customer: a `draft` by default, or with `send: true` delivered at once through the channel’s provider. The customer needs an email for `email` threads and a phone for `sms` (400 otherwise, nothing stored). With `send: true` the message must have what its channel delivers — an `sms` message `body` or `textBody` (or `mediaUrls`), an `email` message `body`, `textBody` or `htmlBody` — or the 400 names what is missing and nothing is stored. A delivery the provider refuses still answers 201: the message is kept with `status: failed` and the provider’s `error`, and can be sent again.',
  scopes: write,
  sdk: { namespace: messages, method: 'create' },
  params: idParams('threadId'),
  body: V1CommunicationMessageCreate,
  response: { status: 201, description: 'The message', schema: dataResponse(V1CommunicationMessage) },
  resourceName: 'Thread',
  errors: [404],
});

export const getCommunicationMessage = defineEndpoint({
  operationId: 'getCommunicationMessage',
  surface: 'v1',
  method: 'get',
  path: '/communication-threads/{threadId}/messages/{messageId}',
  summary: 'Get a message',
  scopes: read,
  sdk: { namespace: messages, method: 'get' },
  params: idParams('threadId', 'messageId'),
  response: { status: 200, description: 'The message', schema: dataResponse(V1CommunicationMessage) },
  resourceName: 'Message',
  errors: [404],
});

export const updateCommunicationMessage = defineEndpoint({
  operationId: 'updateCommunicationMessage',
  surface: 'v1',
  method: 'patch',
  path: '/communication-threads/{threadId}/messages/{messageId}',
  summary: 'Edit a draft',
  description: 'Only a `draft` can be edited; a message handed to a provider is a record of what was sent (409).',
  scopes: write,
  sdk: { namespace: messages, method: 'update' },
  params: idParams('threadId', 'messageId'),
  body: V1CommunicationMessageUpdate,
  response: { status: 200, description: 'The message', schema: dataResponse(V1CommunicationMessage) },
  resourceName: 'Message',
  errors: [404, 409],
});

export const sendCommunicationMessage = defineEndpoint({
  operationId: 'sendCommunicationMessage',
  surface: 'v1',
  method: 'post',
  path: '/communication-threads/{threadId}/messages/{messageId}/send',
  summary: 'Send a draft, or retry a failed message',
  description:
    'Delivers a `draft` or `failed` message through the channel’s provider and returns it with the outcome. A draft may have been edited down to nothing to send (an `sms` message without `body`, `textBody` or `mediaUrls`, an `email` one without `body`, `textBody` or `htmlBody`): that is a 400 `validation_error` naming what to add, and the message stays a draft. A message already `sent` is returned unchanged, so retrying this call never sends twice.',
  scopes: write,
  sdk: { namespace: messages, method: 'send' },
  params: idParams('threadId', 'messageId'),
  response: { status: 200, description: 'The message after delivery', schema: dataResponse(V1CommunicationMessage) },
  resourceName: 'Message',
  errors: [404, 409],
});

export const deleteCommunicationMessage = defineEndpoint({
  operationId: 'deleteCommunicationMessage',
  surface: 'v1',
  method: 'delete',
  path: '/communication-threads/{threadId}/messages/{messageId}',
  summary: 'Discard a draft',
  description:
    'Only a `draft` can be deleted; a message handed to a provider stays as the record of what was sent (409).',
  scopes: write,
  sdk: { namespace: messages, method: 'delete' },
  params: idParams('threadId', 'messageId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Message',
  errors: [404, 409],
});
