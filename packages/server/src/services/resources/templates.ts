import type { createTemplate, EndpointBody, updateTemplate, V1Template } from '@vsf/contract';
import { validationFailed } from '../../errors/api-http-error.js';
import { contentStepsTable } from '../../repositories/tables.js';
import type { ServiceDeps } from '../service-deps.js';
import { TeamResource } from '../standard/team-resource.js';
import { variablesIn } from '../template-variables.js';

/** Templates: `variables` is always what the texts use, recomputed on every write. */
export class Templates extends TeamResource<V1Template> {
  constructor(deps: ServiceDeps) {
    super(deps, 'marketing.templates', { defaults: { subject: null, body: null, htmlBody: null, isActive: true } });
  }

  override create(teamId: string, payload: unknown): Promise<V1Template> {
    const body = payload as EndpointBody<typeof createTemplate>;
    return super.create(teamId, { ...body, variables: variablesIn(body.subject, body.body, body.htmlBody) });
  }

  override async update(teamId: string, id: unknown, payload: unknown): Promise<V1Template> {
    const body = payload as EndpointBody<typeof updateTemplate>;
    const current = await this.get(teamId, id as string);
    const next = {
      ...current,
      ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    } as V1Template;
    // The create rules, checked against the template as it would be saved; a draft may have no body yet.
    if (next.channel === 'sms' && (next.subject || next.htmlBody))
      throw validationFailed([
        { path: 'channel', message: 'SMS templates have only a body; clear subject and htmlBody' },
      ]);
    return super.update(teamId, id, { ...body, variables: variablesIn(next.subject, next.body, next.htmlBody) });
  }

  override async delete(teamId: string, id: string): Promise<{ id: string; deleted: true }> {
    await this.get(teamId, id);
    // Steps keep the content they copied; only the link goes.
    await contentStepsTable
      .scoped(this.deps.db, teamId)
      .where(contentStepsTable.column('templateId'), id)
      .update({ template_id: null });
    return super.delete(teamId, id);
  }
}
