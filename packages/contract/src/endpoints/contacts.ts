import { defineResource } from '../define-resource.js';
import { V1Contact, V1ContactCreate, V1ContactUpdate } from '../schemas/contact.js';
import { z } from '../zod.js';
import { v1 } from './groups.js';

export const contacts = defineResource(v1, {
  name: 'Contact',
  path: '/contacts',
  scope: 'contacts',
  record: V1Contact,
  createBody: V1ContactCreate,
  updateBody: V1ContactUpdate,
  filters: { customerId: z.uuid().optional().openapi({ description: 'Only contacts of this customer' }) },
  create: {
    description: "The contact belongs to `customerId`, which must be one of the team's customers.",
    response: 'The created contact',
    references: ['customerId'],
  },
  update: { response: 'The updated contact' },
  delete: {
    description: 'Removes the contact for good. A sync learns of it only through a full run with pruning.',
    response: 'The contact is deleted',
  },
});
