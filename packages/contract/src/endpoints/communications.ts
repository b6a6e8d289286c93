import { defineResource } from '../define-resource.js';
import * as communication from '../schemas/communication.js';
import { z } from '../zod.js';
import { v1 } from './groups.js';

export const threads = defineResource(v1, {
  name: 'CommunicationThread',
  path: '/communication-threads',
  id: 'threadId',
  label: 'Thread',
  title: 'communication thread',
  scope: 'communications',
  record: communication.V1CommunicationThread,
  createBody: communication.V1CommunicationThreadCreate,
  updateBody: communication.V1CommunicationThreadUpdate,
  filters: { customerId: z.uuid().optional(), channel: communication.CommunicationChannel.optional() },
  operations: ['list', 'get', 'create', 'update'],
  create: {
    summary: 'Start a thread with a customer',
    description: 'A thread is one channel (`sms` or `email`) with one customer; its messages go to that customer.',
    references: ['customerId'],
  },
  update: { summary: 'Change a thread’s subject' },
});

export const messages = defineResource(threads, {
  name: 'CommunicationMessage',
  path: '/messages',
  id: 'messageId',
  label: 'Message',
  record: communication.V1CommunicationMessage,
  createBody: communication.V1CommunicationMessageCreate,
  updateBody: communication.V1CommunicationMessageUpdate,
  filters: { status: communication.MessageStatus.optional() },
  operations: ['list', 'create', 'get', 'update', 'delete'],
  create: {
    summary: 'Write a message, as a draft or sent now',
    description:
      'Stores an outbound message to the thread’s customer: a `draft` by default, or with `send: true` delivered at once through the channel’s provider. The customer needs an email for `email` threads and a phone for `sms` (400 otherwise, nothing stored). With `send: true` the message must have what its channel delivers — an `sms` message `body` or `textBody` (or `mediaUrls`), an `email` message `body`, `textBody` or `htmlBody` — or the 400 names what is missing and nothing is stored. A delivery the provider refuses still answers 201: the message is kept with `status: failed` and the provider’s `error`, and can be sent again.',
  },
  update: {
    summary: 'Edit a draft',
    description: 'Only a `draft` can be edited; a message handed to a provider is a record of what was sent (409).',
    errors: [409],
  },
  delete: {
    summary: 'Discard a draft',
    description:
      'Only a `draft` can be deleted; a message handed to a provider stays as the record of what was sent (409).',
    errors: [409],
  },
  actions: {
    send: {
      summary: 'Send a draft, or retry a failed message',
      description:
        'Delivers a `draft` or `failed` message through the channel’s provider and returns it with the outcome. A draft may have been edited down to nothing to send (an `sms` message without `body`, `textBody` or `mediaUrls`, an `email` one without `body`, `textBody` or `htmlBody`): that is a 400 `validation_error` naming what to add, and the message stays a draft. A message already `sent` is returned unchanged, so retrying this call never sends twice.',
      response: 'The message after delivery',
      errors: [409],
    },
  },
});
