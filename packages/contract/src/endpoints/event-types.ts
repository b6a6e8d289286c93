import { defineResource } from '../define-resource.js';
import { EventTypeScope, V1EventType, V1EventTypeCreate, V1EventTypeUpdate } from '../schemas/event-type.js';
import { writeScopes } from '../scopes.js';
import { v1 } from './groups.js';

export const eventTypes = defineResource(v1, {
  name: 'EventType',
  noun: 'event type',
  path: '/event-types',
  // Event types configure scheduling, so writing them needs the appointments scopes.
  scope: { read: { all: [], any: ['read:cars', 'read:appointments'] }, write: { all: writeScopes('appointments') } },
  record: V1EventType,
  createBody: V1EventTypeCreate,
  updateBody: V1EventTypeUpdate,
  filters: { scope: EventTypeScope.optional().openapi({ description: 'Only types of this scope' }) },
  operations: ['list', 'get', 'create', 'update'],
  list: { description: 'Every team starts with the default types, among them `drop_off` and `pick_up`.' },
  create: {
    summary: 'Create a custom event type',
    description:
      'Event types configure scheduling, so writing them needs the appointments scopes. `value` is unique per team (409).',
    errors: [409],
  },
});
