import type { CommunicationChannel, StepContent } from '@vsf/contract';
import type { ValidationDetail } from '../errors/api-http-error.js';

/** The parts of a message or step that a provider delivers. */
export interface SendableContent {
  body?: string | null | undefined;
  textBody?: string | null | undefined;
  htmlBody?: string | null | undefined;
  mediaUrls?: readonly string[] | undefined;
}

const present = (text: string | null | undefined) => typeof text === 'string' && text.trim() !== '';

/**
 * What a message lacks to be delivered on its channel, as 400 details; empty when it can go. Drafts may be
 * incomplete (DESIGN: drafts), so this is checked when sending, not when saving. An SMS carries text
 * (`textBody` or `body`) or, as MMS, media; an email carries a text or an HTML part.
 */
export function messageSendProblems(channel: CommunicationChannel, message: SendableContent): ValidationDetail[] {
  if (channel === 'sms') {
    if (present(message.textBody) || present(message.body) || (message.mediaUrls?.length ?? 0) > 0) return [];
    return [{ path: 'body', message: 'An sms message needs body (or textBody, or mediaUrls) to be sent; add it' }];
  }
  if (present(message.textBody) || present(message.body) || present(message.htmlBody)) return [];
  return [{ path: 'body', message: 'An email message needs body, textBody or htmlBody to be sent; add one' }];
}

/** What a campaign content step lacks to be sent, at `content.<field>`; empty when it can go. */
export function stepSendProblems(type: CommunicationChannel, content: StepContent | null): ValidationDetail[] {
  if (type === 'sms')
    return present(content?.body)
      ? []
      : [{ path: 'content.body', message: 'The sms step has nothing to send: add content.body (PATCH the step)' }];
  return present(content?.body) || present(content?.htmlBody)
    ? []
    : [
        {
          path: 'content.body',
          message: 'The email step has nothing to send: add content.body or content.htmlBody (PATCH the step)',
        },
      ];
}
