import { defineResource } from '../define-resource.js';
import { QueryBoolean } from '../schemas/common.js';
import { V1Form, V1FormCreate, V1FormSubmission, V1FormSubmissionCreate, V1FormUpdate } from '../schemas/form.js';
import { z } from '../zod.js';
import { marketing } from './groups.js';

export const forms = defineResource(marketing, {
  name: 'Form',
  path: '/forms',
  scope: 'forms',
  record: V1Form,
  createBody: V1FormCreate,
  updateBody: V1FormUpdate,
  filters: { isActive: QueryBoolean.optional() },
  list: { summary: 'List marketing forms' },
  create: {
    summary: 'Create a form with typed fields',
    description:
      'Each field has a `key` (the name of its answer in `values`), a `label`, a `type` and `required` (default false); `select` and `multiselect` fields list their `options`. Keys are distinct within a form.',
  },
  update: {
    description:
      '`fields` replaces the whole list. Earlier submissions keep the fields they were answered against in `fieldSnapshot`.',
  },
  delete: {
    summary: 'Delete a form without submissions',
    description:
      'Submissions are the facility’s leads, so a form that has any is never deleted with them (409): set `isActive` to false to close it instead.',
    inUse: 'The form has submissions; set isActive to false to close it instead',
  },
});

export const submissions = defineResource(forms, {
  name: 'FormSubmission',
  path: '/submissions',
  id: 'submissionId',
  record: V1FormSubmission,
  createBody: V1FormSubmissionCreate,
  filters: { customerId: z.uuid().optional() },
  operations: ['create', 'list', 'get'],
  create: {
    summary: 'Submit answers to a form',
    description: [
      '`values` is checked against the form’s fields: every problem (a key the form does not have, a missing required answer, a value of the wrong type or not among the options) is one `{path: "values.<key>", message}` detail of a 400, and nothing is stored. An empty string, an empty array or null counts as no answer. An inactive form answers 409.',
      'The submission keeps `fieldSnapshot` (the form’s fields at this moment) and `metadata`. `respondentEmail` defaults to the answer of the form’s first `email` field and `respondentPhone` to its first `phone` field.',
      'Customers are touched only when the key also has `read:customers` and `write:customers`; without them the submission is stored with `customerId: null` and the respondent fields, and no customer is read or written. With those scopes and an email, the submission is linked to the team’s customer with that email (case-insensitive; not soft-deleted; the oldest when several match). When there is none, a customer is created in the same transaction only if it would pass `POST /customers` (`V1CustomerCreate`): `firstName` is the first word of `respondentName` and `lastName` the rest, so a name of at least two words is needed; the email and phone are copied. Otherwise (one-word or no name, an email or phone the customer schema refuses) no customer is created and `customerId` is null. Without an email no customer is linked.',
    ].join('\n\n'),
    errors: [409],
  },
  list: {
    description:
      'Submissions never change after they are stored, so `updatedAfter` and the order (newest first) use `submittedAt`.',
  },
});
