import { z } from '../zod.js';
import { Timestamp, Uuid } from './common.js';
import { CommunicationChannel } from './communication.js';
import { allOptional } from './team-record.js';

/** What `{{name}}` may say in a template; each is filled from the recipient customer. */
export const TEMPLATE_VARIABLES = ['firstName', 'lastName', 'fullName', 'companyName', 'email', 'phone'] as const;
export type TemplateVariable = (typeof TEMPLATE_VARIABLES)[number];

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Problems with the `{{…}}` placeholders of one text: unknown names and unbalanced braces. */
export function templateVariableProblems(text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!(TEMPLATE_VARIABLES as readonly string[]).includes(name)) {
      problems.push(`Unknown variable {{${name}}}; use one of ${TEMPLATE_VARIABLES.map((v) => `{{${v}}}`).join(', ')}`);
    }
  }
  const rest = text.replace(PLACEHOLDER, '');
  if (rest.includes('{{') || rest.includes('}}'))
    problems.push('Unbalanced {{ or }}; write variables as {{firstName}}');
  return problems;
}

/** Fills `{{variable}}` placeholders; a missing value renders as an empty string. */
export function renderTemplate(text: string, values: Partial<Record<TemplateVariable, string | null>>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => values[name as TemplateVariable] ?? '');
}

/** Adds a validation issue for every bad placeholder in the named text fields. */
export function checkTemplateFields(
  fields: Record<string, unknown>,
  ctx: z.RefinementCtx,
  pathPrefix: (string | number)[] = [],
): void {
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    for (const message of templateVariableProblems(value))
      ctx.addIssue({ code: 'custom', path: [...pathPrefix, key], message });
  }
}

export const V1Template = z
  .object({
    id: Uuid,
    teamId: z.string(),
    name: z.string(),
    channel: CommunicationChannel,
    subject: z.string().nullable().openapi({ description: 'Email subject; null for SMS' }),
    body: z.string().nullable().openapi({ description: 'Text (SMS text or email text part), with `{{variables}}`' }),
    htmlBody: z.string().nullable(),
    variables: z
      .array(z.enum(TEMPLATE_VARIABLES))
      .openapi({ description: 'The variables the template uses, in order of first use' }),
    isActive: z.boolean(),
    createdAt: Timestamp.nullable(),
    updatedAt: Timestamp.nullable(),
  })
  .openapi('V1Template', {
    description: `A reusable message. Variables: ${TEMPLATE_VARIABLES.map((v) => `\`{{${v}}}\``).join(', ')}; anything else is refused when saved.`,
  });
export type V1Template = z.infer<typeof V1Template>;

const templateFields = {
  name: z.string().min(1).max(200).openapi({ example: 'Spring open house' }),
  channel: CommunicationChannel,
  subject: z.string().max(200).nullable().optional().openapi({ example: 'Your car, {{firstName}}' }),
  body: z
    .string()
    .max(10_000)
    .nullable()
    .optional()
    .openapi({ example: 'Hi {{firstName}}, our open house is on May 3.' }),
  htmlBody: z.string().max(200_000).nullable().optional(),
  isActive: z.boolean().optional(),
};

/** An email template: an SMS one with a subject or HTML part is refused, so the example is an email. */
const TEMPLATE_EXAMPLE = {
  name: 'Spring open house',
  channel: 'email',
  subject: 'Your car, {{firstName}}',
  body: 'Hi {{firstName}}, our open house is on May 3.',
  htmlBody: '<p>Hi {{firstName}}, our open house is on May 3.</p>',
  isActive: true,
};

export const V1TemplateCreate = z
  .strictObject(templateFields)
  .superRefine((b, ctx) => {
    checkTemplateFields({ subject: b.subject, body: b.body, htmlBody: b.htmlBody }, ctx);
    if (b.channel === 'sms' && (b.subject || b.htmlBody))
      ctx.addIssue({ code: 'custom', path: ['subject'], message: 'SMS templates have only a body' });
  })
  .openapi('V1TemplateCreate', {
    description: 'A template may be a draft (`{name, channel}`): what a send needs is checked when a step is sent',
    example: TEMPLATE_EXAMPLE,
  });

export const V1TemplateUpdate = z
  .strictObject({ ...allOptional(templateFields), channel: CommunicationChannel.optional() })
  .superRefine((b, ctx) => checkTemplateFields({ subject: b.subject, body: b.body, htmlBody: b.htmlBody }, ctx))
  .openapi('V1TemplateUpdate', {
    description: 'The channel rules are checked against the template as it would be saved',
    example: TEMPLATE_EXAMPLE,
  });
