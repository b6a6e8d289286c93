import { defineResource } from '../define-resource.js';
import { QueryBoolean } from '../schemas/common.js';
import { CommunicationChannel } from '../schemas/communication.js';
import { V1Template, V1TemplateCreate, V1TemplateUpdate } from '../schemas/template.js';
import { marketing } from './groups.js';

export const templates = defineResource(marketing, {
  name: 'Template',
  path: '/templates',
  scope: 'templates',
  record: V1Template,
  createBody: V1TemplateCreate,
  updateBody: V1TemplateUpdate,
  filters: { channel: CommunicationChannel.optional(), isActive: QueryBoolean.optional() },
  list: { summary: 'List marketing templates' },
  create: {
    description:
      'Variables are written `{{firstName}}`; an unknown variable or a stray brace is refused when the template is saved, not when it is sent. A template may be a draft: `{name, channel}` is enough; a body is needed only when a step made from it is sent.',
  },
  update: { description: 'Content steps made from the template keep the copy they took.' },
  delete: { description: 'Steps copied from it keep their content; their `templateId` is cleared.' },
});
