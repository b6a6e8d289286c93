import {
  type CommunicationChannel,
  renderTemplate,
  type StepContent,
  toValidationDetails,
  V1CommunicationMessageUpdate,
  V1CommunicationThreadUpdate,
  type V1Customer,
} from '@vsf/contract';
import type { ValidationDetail } from '../errors/api-http-error.js';
import { messageSendProblems } from './send-readiness.js';

/** A content step filled in for one recipient: what their message (and a new thread's subject) will say. */
export interface RenderedStep {
  subject: string | null;
  body: string | null;
  htmlBody: string | null;
}

/** The step's texts with the customer's `{{variables}}`; a text that renders to nothing is null, not "". */
export function renderStepFor(type: CommunicationChannel, content: StepContent | null, customer: V1Customer) {
  const values = {
    firstName: customer.firstName,
    lastName: customer.lastName,
    fullName: `${customer.firstName} ${customer.lastName}`.trim(),
    companyName: customer.companyName,
    email: customer.email,
    phone: customer.phone,
  };
  const render = (text: string | null | undefined) => {
    const out = text ? renderTemplate(text, values) : '';
    return out.trim() === '' ? null : out;
  };
  return {
    subject: type === 'email' ? render(content?.subject) : null,
    body: render(content?.body),
    htmlBody: type === 'email' ? render(content?.htmlBody) : null,
  } satisfies RenderedStep;
}

/**
 * Why a rendered message could not be stored as the API's own records, at `recipients.<customerId>.<field>`.
 * A campaign send writes messages and threads indirectly, so its outputs are held to the same contract
 * schemas a client's `PATCH` of those records is: variables can push a subject past its bound or render a
 * body to nothing, and such a send must be refused before anything is written.
 */
export function renderedStepProblems(
  customerId: string,
  type: CommunicationChannel,
  rendered: RenderedStep,
): ValidationDetail[] {
  const prefix = `recipients.${customerId}`;
  const message = V1CommunicationMessageUpdate.safeParse(rendered);
  const thread = V1CommunicationThreadUpdate.safeParse({ subject: rendered.subject });
  const problems = [
    ...(message.error ? toValidationDetails(message.error, prefix) : []),
    ...(thread.error ? toValidationDetails(thread.error, prefix) : []),
    ...messageSendProblems(type, rendered).map((p) => ({
      path: `${prefix}.${p.path}`,
      message: `Renders to nothing for this customer: ${p.message}`,
    })),
  ];
  return problems.filter((p, i) => problems.findIndex((q) => q.path === p.path && q.message === p.message) === i);
}
