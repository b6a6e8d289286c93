import { randomUUID } from 'node:crypto';
import {
  type createTemplate,
  type EndpointBody,
  type EndpointQuery,
  type listTemplates,
  TEMPLATE_VARIABLES,
  type TemplateVariable,
  type updateTemplate,
  type V1Template,
} from '@vsf/contract';
import { notFound, validationFailed } from '../errors/api-http-error.js';
import { contentStepsTable, templatesTable } from '../repositories/campaign-tables.js';
import type { ListResult } from '../repositories/team-scoped-table.js';
import type { ServiceDeps } from './service-deps.js';

/** The variables used across texts, in order of first use. */
export function variablesIn(...texts: (string | null | undefined)[]): TemplateVariable[] {
  const found: TemplateVariable[] = [];
  for (const text of texts) {
    for (const match of (text ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
      const name = match[1] as TemplateVariable;
      if ((TEMPLATE_VARIABLES as readonly string[]).includes(name) && !found.includes(name)) found.push(name);
    }
  }
  return found;
}

export class TemplatesService {
  constructor(private readonly deps: ServiceDeps) {}

  list(teamId: string, query: EndpointQuery<typeof listTemplates>): Promise<ListResult<V1Template>> {
    return templatesTable.list(this.deps.db, teamId, query, (q) => {
      if (query.channel) q.where('templates.channel', query.channel);
      if (query.isActive !== undefined) q.where('templates.is_active', query.isActive);
    });
  }

  async get(teamId: string, id: string): Promise<V1Template> {
    const template = await templatesTable.findById(this.deps.db, teamId, id);
    if (!template) throw notFound('Template');
    return template;
  }

  create(teamId: string, body: EndpointBody<typeof createTemplate>): Promise<V1Template> {
    return templatesTable.insert(
      this.deps.db,
      teamId,
      {
        id: randomUUID(),
        name: body.name,
        channel: body.channel,
        subject: body.subject ?? null,
        body: body.body ?? null,
        htmlBody: body.htmlBody ?? null,
        variables: variablesIn(body.subject, body.body, body.htmlBody),
        isActive: body.isActive ?? true,
      },
      this.deps.now(),
    );
  }

  async update(teamId: string, id: string, body: EndpointBody<typeof updateTemplate>): Promise<V1Template> {
    const current = await this.get(teamId, id);
    const next = {
      ...current,
      ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    } as V1Template;
    // The create rules, checked against the template as it would be saved; a draft may have no body yet.
    if (next.channel === 'sms' && (next.subject || next.htmlBody))
      throw validationFailed([
        { path: 'channel', message: 'SMS templates have only a body; clear subject and htmlBody' },
      ]);
    const changes = { ...body, variables: variablesIn(next.subject, next.body, next.htmlBody) };
    return (await templatesTable.update(this.deps.db, teamId, id, changes, this.deps.now())) as V1Template;
  }

  async delete(teamId: string, id: string): Promise<{ id: string; deleted: true }> {
    await this.get(teamId, id);
    // Steps keep the content they copied; only the link goes.
    await contentStepsTable
      .scoped(this.deps.db, teamId)
      .where('campaign_content_steps.template_id', id)
      .update({ template_id: null });
    await templatesTable.delete(this.deps.db, teamId, id);
    return { id, deleted: true };
  }
}
