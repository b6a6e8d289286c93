import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import { V1Form, V1FormCreate, V1FormSubmission, V1FormSubmissionCreate, V1FormUpdate } from '../schemas/form.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('forms') };
const write = { all: writeScopes('forms') };

export const listForms = defineEndpoint({
  operationId: 'listForms',
  surface: 'v1',
  method: 'get',
  path: '/marketing/forms',
  summary: 'List marketing forms',
  scopes: read,
  sdk: { namespace: ['marketing', 'forms'], method: 'list' },
  query: z.strictObject({ ...listQueryShape, isActive: QueryBoolean.optional() }),
  response: { status: 200, description: 'A page of forms', schema: listResponse(V1Form) },
  paginated: true,
});

export const getForm = defineEndpoint({
  operationId: 'getForm',
  surface: 'v1',
  method: 'get',
  path: '/marketing/forms/{formId}',
  summary: 'Get a form',
  scopes: read,
  sdk: { namespace: ['marketing', 'forms'], method: 'get' },
  params: idParams('formId'),
  response: { status: 200, description: 'The form', schema: dataResponse(V1Form) },
  resourceName: 'Form',
  errors: [404],
});

export const createForm = defineEndpoint({
  operationId: 'createForm',
  surface: 'v1',
  method: 'post',
  path: '/marketing/forms',
  summary: 'Create a form with typed fields',
  description:
    'Each field has a `key` (the name of its answer in `values`), a `label`, a `type` and `required` (default false); `select` and `multiselect` fields list their `options`. Keys are distinct within a form.',
  scopes: write,
  sdk: { namespace: ['marketing', 'forms'], method: 'create' },
  body: V1FormCreate,
  response: { status: 201, description: 'The form', schema: dataResponse(V1Form) },
});

export const updateForm = defineEndpoint({
  operationId: 'updateForm',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/forms/{formId}',
  summary: 'Update a form',
  description:
    '`fields` replaces the whole list. Earlier submissions keep the fields they were answered against in `fieldSnapshot`.',
  scopes: write,
  sdk: { namespace: ['marketing', 'forms'], method: 'update' },
  params: idParams('formId'),
  body: V1FormUpdate,
  response: { status: 200, description: 'The form', schema: dataResponse(V1Form) },
  resourceName: 'Form',
  errors: [404],
});

export const deleteForm = defineEndpoint({
  operationId: 'deleteForm',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/forms/{formId}',
  summary: 'Delete a form without submissions',
  description:
    'Submissions are the facility’s leads, so a form that has any is never deleted with them (409): set `isActive` to false to close it instead.',
  scopes: write,
  sdk: { namespace: ['marketing', 'forms'], method: 'delete' },
  params: idParams('formId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Form',
  errors: [404, 409],
});

export const createFormSubmission = defineEndpoint({
  operationId: 'createFormSubmission',
  surface: 'v1',
  method: 'post',
  path: '/marketing/forms/{formId}/submissions',
  summary: 'Submit answers to a form',
  description: [
    '`values` is checked against the form’s fields: every problem (a key the form does not have, a missing required answer, a value of the wrong type or not among the options) is one `{path: "values.<key>", message}` detail of a 400, and nothing is stored. An empty string, an empty array or null counts as no answer. An inactive form answers 409.',
    'The submission keeps `fieldSnapshot` (the form’s fields at this moment) and `metadata`. `respondentEmail` defaults to the answer of the form’s first `email` field and `respondentPhone` to its first `phone` field.',
    'Customers are touched only when the key also has `read:customers` and `write:customers`; without them the submission is stored with `customerId: null` and the respondent fields, and no customer is read or written. With those scopes and an email, the submission is linked to the team’s customer with that email (case-insensitive; not soft-deleted; the oldest when several match). When there is none, a customer is created in the same transaction only if it would pass `POST /customers` (`V1CustomerCreate`): `firstName` is the first word of `respondentName` and `lastName` the rest, so a name of at least two words is needed; the email and phone are copied. Otherwise (one-word or no name, an email or phone the customer schema refuses) no customer is created and `customerId` is null. Without an email no customer is linked.',
  ].join('\n\n'),
  scopes: write,
  sdk: { namespace: ['marketing', 'forms', 'submissions'], method: 'create' },
  params: idParams('formId'),
  body: V1FormSubmissionCreate,
  response: { status: 201, description: 'The submission', schema: dataResponse(V1FormSubmission) },
  resourceName: 'Form',
  errors: [404, 409],
});

export const listFormSubmissions = defineEndpoint({
  operationId: 'listFormSubmissions',
  surface: 'v1',
  method: 'get',
  path: '/marketing/forms/{formId}/submissions',
  summary: 'List a form’s submissions',
  description:
    'Submissions never change after they are stored, so `updatedAfter` and the order (newest first) use `submittedAt`.',
  scopes: read,
  sdk: { namespace: ['marketing', 'forms', 'submissions'], method: 'list' },
  params: idParams('formId'),
  query: z.strictObject({ ...listQueryShape, customerId: z.uuid().optional() }),
  response: { status: 200, description: 'A page of submissions', schema: listResponse(V1FormSubmission) },
  paginated: true,
  resourceName: 'Form',
  errors: [404],
});

export const getFormSubmission = defineEndpoint({
  operationId: 'getFormSubmission',
  surface: 'v1',
  method: 'get',
  path: '/marketing/forms/{formId}/submissions/{submissionId}',
  summary: 'Get a form submission',
  scopes: read,
  sdk: { namespace: ['marketing', 'forms', 'submissions'], method: 'get' },
  params: idParams('formId', 'submissionId'),
  response: { status: 200, description: 'The submission', schema: dataResponse(V1FormSubmission) },
  resourceName: 'Form submission',
  errors: [404],
});
