import { defineEndpoint } from '../endpoint.js';
import { DeletedRecord, dataResponse, listQueryShape, listResponse, QueryBoolean } from '../schemas/common.js';
import { CommunicationChannel } from '../schemas/communication.js';
import { V1Template, V1TemplateCreate, V1TemplateUpdate } from '../schemas/template.js';
import { readScopes, writeScopes } from '../scopes.js';
import { z } from '../zod.js';
import { idParams } from './shared.js';

const read = { all: readScopes('templates') };
const write = { all: writeScopes('templates') };
const namespace = ['marketing', 'templates'] as const;

export const listTemplates = defineEndpoint({
  operationId: 'listTemplates',
  surface: 'v1',
  method: 'get',
  path: '/marketing/templates',
  summary: 'List marketing templates',
  scopes: read,
  sdk: { namespace, method: 'list' },
  query: z.strictObject({
    ...listQueryShape,
    channel: CommunicationChannel.optional(),
    isActive: QueryBoolean.optional(),
  }),
  response: { status: 200, description: 'A page of templates', schema: listResponse(V1Template) },
  paginated: true,
});

export const getTemplate = defineEndpoint({
  operationId: 'getTemplate',
  surface: 'v1',
  method: 'get',
  path: '/marketing/templates/{templateId}',
  summary: 'Get a template',
  scopes: read,
  sdk: { namespace, method: 'get' },
  params: idParams('templateId'),
  response: { status: 200, description: 'The template', schema: dataResponse(V1Template) },
  resourceName: 'Template',
  errors: [404],
});

export const createTemplate = defineEndpoint({
  operationId: 'createTemplate',
  surface: 'v1',
  method: 'post',
  path: '/marketing/templates',
  summary: 'Create a template',
  description:
    'Variables are written `{{firstName}}`; an unknown variable or a stray brace is refused when the template is saved, not when it is sent. A template may be a draft: `{name, channel}` is enough; a body is needed only when a step made from it is sent.',
  scopes: write,
  sdk: { namespace, method: 'create' },
  body: V1TemplateCreate,
  response: { status: 201, description: 'The template', schema: dataResponse(V1Template) },
});

export const updateTemplate = defineEndpoint({
  operationId: 'updateTemplate',
  surface: 'v1',
  method: 'patch',
  path: '/marketing/templates/{templateId}',
  summary: 'Update a template',
  description: 'Content steps made from the template keep the copy they took.',
  scopes: write,
  sdk: { namespace, method: 'update' },
  params: idParams('templateId'),
  body: V1TemplateUpdate,
  response: { status: 200, description: 'The template', schema: dataResponse(V1Template) },
  resourceName: 'Template',
  errors: [404],
});

export const deleteTemplate = defineEndpoint({
  operationId: 'deleteTemplate',
  surface: 'v1',
  method: 'delete',
  path: '/marketing/templates/{templateId}',
  summary: 'Delete a template',
  description: 'Steps copied from it keep their content; their `templateId` is cleared.',
  scopes: write,
  sdk: { namespace, method: 'delete' },
  params: idParams('templateId'),
  response: { status: 200, description: 'Deleted', schema: dataResponse(DeletedRecord) },
  resourceName: 'Template',
  errors: [404],
});
