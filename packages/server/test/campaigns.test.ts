import { randomUUID } from 'node:crypto';
import {
  V1CampaignContentStep,
  V1CampaignContentStepUpdate,
  V1CampaignSend,
  V1CommunicationMessage,
  V1CommunicationMessageUpdate,
  V1CommunicationThread,
  V1CommunicationThreadUpdate,
  V1Customer,
  V1CustomerUpdate,
  V1FormSubmission,
  V1SocialEventInvite,
  V1SocialEventRsvp,
  V1SocialEventRsvpUpdate,
} from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { OutboxProvider } from '../src/providers/messaging/outbox-provider.js';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;

teamServer((team) => {
  ({ server, api, teamId } = team);
});

async function post(path: string, body: unknown) {
  const res = await api('POST', path, { body });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data;
}

const emailTemplate = (name: string, subject: string, body: string) =>
  post('/marketing/templates', { name, channel: 'email', subject, body });

const ALL_NO = {
  invoices: false,
  estimates: false,
  scheduling: false,
  carUpdates: false,
  contracts: false,
  socialEvents: false,
  marketing: false,
};

/** A customer with one contact whose preferences are given. */
async function customer(fields: Record<string, unknown>, preferences: Partial<typeof ALL_NO> = {}) {
  const c = await post('/customers', { firstName: 'Ada', lastName: 'Lovelace', ...fields });
  await post('/contacts', {
    customerId: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    communicationPreferences: { ...ALL_NO, ...preferences },
  });
  return c as { id: string; firstName: string };
}

describe('templates', () => {
  it('records the variables used and refuses unknown ones or stray braces when saved', async () => {
    const t = await emailTemplate(
      'Renewal',
      'Your storage, {{ firstName }}',
      'Dear {{firstName}} {{lastName}} of {{companyName}}',
    );
    expect(t.variables).toEqual(['firstName', 'lastName', 'companyName']);
    const bad = await api('POST', '/marketing/templates', {
      body: { name: 'Bad', channel: 'email', subject: 'Hi {{first_name}}', body: 'Total: {{amount} due' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      {
        path: 'subject',
        message: expect.stringMatching(/^Unknown variable \{\{first_name\}\}; use one of \{\{firstName\}\}/),
      },
      { path: 'body', message: 'Unbalanced {{ or }}; write variables as {{firstName}}' },
    ]);
    const sms = await api('POST', '/marketing/templates', {
      body: { name: 'SMS', channel: 'sms', subject: 'No', body: 'Hi' },
    });
    expect(sms.status).toBe(400);
    // A template may be a draft without a body (checked when a step made from it is sent).
    const emptied = await api('PATCH', `/marketing/templates/${t.id}`, { body: { body: null } });
    expect(emptied.status).toBe(200);
    expect(emptied.body.data.body).toBeNull();
    const updated = await api('PATCH', `/marketing/templates/${t.id}`, { body: { body: 'Hello {{fullName}}' } });
    expect(updated.body.data.variables).toEqual(['firstName', 'fullName']);
    const smsList = await api('GET', '/marketing/templates', { query: { channel: 'sms' } });
    expect(smsList.body.data.map((x: { id: string }) => x.id)).not.toContain(t.id);
  });
});

describe('content steps', () => {
  it('copies a template into the step; later template edits leave the step alone', async () => {
    const template = await emailTemplate('Open house', 'Open house, {{firstName}}', 'Join us');
    const campaign = await post('/marketing/campaigns', { name: 'Spring' });
    expect(campaign.status).toBe('draft');
    const step = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'email',
      name: 'Invite',
      templateId: template.id,
      content: { body: 'Join us on May 3' },
      scheduledAt: '2030-05-01T09:00:00+02:00',
    });
    expect(step).toMatchObject({
      campaignId: campaign.id,
      type: 'email',
      order: 0,
      templateId: template.id,
      scheduledAt: '2030-05-01T07:00:00.000Z',
      content: { subject: 'Open house, {{firstName}}', body: 'Join us on May 3', htmlBody: null },
    });
    await api('PATCH', `/marketing/templates/${template.id}`, { body: { subject: 'Changed' } });
    expect((await api('GET', `/marketing/campaigns/${campaign.id}/content/${step.id}`)).body.data.content.subject).toBe(
      'Open house, {{firstName}}',
    );
    const second = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Reminder',
      content: { body: 'Tomorrow!' },
    });
    expect(second.order).toBe(1);

    const mismatch = await api('POST', `/marketing/campaigns/${campaign.id}/content`, {
      body: { type: 'sms', name: 'x', templateId: template.id },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.details).toEqual([
      { path: 'templateId', message: 'The template is for email; this step is sms' },
    ]);
    const smsSubject = await api('POST', `/marketing/campaigns/${campaign.id}/content`, {
      body: { type: 'sms', name: 'x', content: { subject: 'no', body: 'b' } },
    });
    expect(smsSubject.status).toBe(400);

    expect((await api('DELETE', `/marketing/templates/${template.id}`)).body.data).toEqual({
      id: template.id,
      deleted: true,
    });
    const kept = (await api('GET', `/marketing/campaigns/${campaign.id}/content/${step.id}`)).body.data;
    expect(kept).toMatchObject({ templateId: null, content: { body: 'Join us on May 3' } });
  });
});

describe('drafts and what a send needs', () => {
  it('accepts draft templates and steps, and refuses to send one with nothing to send, writing nothing', async () => {
    const draftTemplate = await post('/marketing/templates', { name: 'Draft', channel: 'email' });
    expect(draftTemplate).toMatchObject({ subject: null, body: null, htmlBody: null, variables: [] });
    expect((await post('/marketing/templates', { name: 'SMS draft', channel: 'sms' })).body).toBeNull();
    const reader = await customer(
      { firstName: 'Dee', lastName: 'Raft', email: 'dee@example.com', phone: '+15555550131' },
      { marketing: true },
    );
    const campaign = await post('/marketing/campaigns', { name: 'Drafts' });
    const audience = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'Dee',
      filter: { customerIds: [reader.id] },
    });
    const emailStep = await post(`/marketing/campaigns/${campaign.id}/content`, { type: 'email', name: 'E', order: 3 });
    expect(emailStep).toMatchObject({ type: 'email', name: 'E', order: 3, templateId: null });
    const fromDraft = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'email',
      name: 'From the draft template',
      templateId: draftTemplate.id,
    });
    expect(fromDraft).toMatchObject({ templateId: draftTemplate.id, content: { body: null, htmlBody: null } });
    const smsStep = await post(`/marketing/campaigns/${campaign.id}/content`, { type: 'sms', name: 'S' });
    // A blank body counts as none.
    const blankSms = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Blank',
      content: { body: '   ' },
    });

    const email = server.messaging.email as OutboxProvider;
    const sms = server.messaging.sms as OutboxProvider;
    const delivered = () => email.deliveries.length + sms.deliveries.length;
    const before = { data: await snapshotTeamData(server.db, teamId), delivered: delivered() };
    for (const [step, missing] of [
      [emailStep, /email step has nothing to send: add content.body or content.htmlBody/],
      [fromDraft, /email step has nothing to send/],
      [smsStep, /sms step has nothing to send: add content.body/],
      [blankSms, /sms step has nothing to send/],
    ] as const) {
      const res = await api('POST', `/marketing/campaigns/${campaign.id}/sends`, {
        body: { contentStepId: step.id, audienceId: audience.id },
      });
      expect(res.status, step.name).toBe(400);
      expect(isApiError(res.body)).toBe(true);
      expect(res.body).toMatchObject({ code: 'validation_error' });
      expect(res.body.details).toEqual([{ path: 'content.body', message: expect.stringMatching(missing) }]);
    }
    expect({ data: await snapshotTeamData(server.db, teamId), delivered: delivered() }).toEqual(before);

    // Completed, the draft sends (and could still be edited until then: nothing recorded it as sent).
    await api('PATCH', `/marketing/campaigns/${campaign.id}/content/${emailStep.id}`, {
      body: { content: { subject: 'Hi {{firstName}}', body: 'Hello {{fullName}}' } },
    });
    const send = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: emailStep.id,
      audienceId: audience.id,
    });
    expect(send).toMatchObject({ status: 'completed', sentCount: 1 });
    expect(email.deliveries.at(-1)?.message).toMatchObject({ subject: 'Hi Dee', text: 'Hello Dee Raft' });
  });

  it('refuses a send whose rendering the message or thread schemas refuse, naming recipient and field', async () => {
    const longEmail = `${'a'.repeat(60)}@example.com`;
    const wordy = await customer({ firstName: 'Wordy', email: longEmail, phone: '+15555550132' }, { marketing: true });
    const campaign = await post('/marketing/campaigns', { name: 'Rendering' });
    const audience = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'Wordy',
      filter: { customerIds: [wordy.id] },
    });
    // 3 × 72 characters: a subject within its 200 as written, past it once rendered.
    const tooLong = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'email',
      name: 'Long subject',
      content: { subject: '{{email}} {{email}} {{email}}', body: 'Hi' },
    });
    // No company: the body renders to nothing.
    const empty = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Empty body',
      content: { body: '{{companyName}}' },
    });
    const before = await snapshotTeamData(server.db, teamId);
    const long = await api('POST', `/marketing/campaigns/${campaign.id}/sends`, {
      body: { contentStepId: tooLong.id, audienceId: audience.id },
    });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([
      { path: `recipients.${wordy.id}.subject`, message: expect.stringMatching(/200/) },
    ]);
    const nothing = await api('POST', `/marketing/campaigns/${campaign.id}/sends`, {
      body: { contentStepId: empty.id, audienceId: audience.id },
    });
    expect(nothing.status).toBe(400);
    expect(nothing.body.details).toEqual([
      { path: `recipients.${wordy.id}.body`, message: expect.stringMatching(/^Renders to nothing for this customer/) },
    ]);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('copies a template only for keys with read:templates, and tells the others nothing about it', async () => {
    const template = await emailTemplate('Secret', 'S', 'Body');
    const campaign = await post('/marketing/campaigns', { name: 'Scopes' });
    const campaignsOnly = apiCaller(
      server.baseUrl,
      (await server.createKey(teamId, ['read:campaigns', 'write:campaigns'])).key,
    );
    const before = await snapshotTeamData(server.db, teamId);
    const answers = [];
    for (const templateId of [template.id, randomUUID()]) {
      const res = await campaignsOnly('POST', `/marketing/campaigns/${campaign.id}/content`, {
        body: { type: 'sms', name: 'Copy', templateId },
      });
      expect(res.status).toBe(403);
      expect(isApiError(res.body)).toBe(true);
      answers.push(res.body);
    }
    // The same answer for the team's email template and for no template: neither channel nor existence shows.
    expect(answers[0]).toEqual({ error: 'Missing scope: read:templates', code: 'forbidden', details: null });
    expect(answers[1]).toEqual(answers[0]);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);

    const withTemplates = apiCaller(
      server.baseUrl,
      (await server.createKey(teamId, ['read:campaigns', 'write:campaigns', 'read:templates'])).key,
    );
    const copied = await withTemplates('POST', `/marketing/campaigns/${campaign.id}/content`, {
      body: { type: 'email', name: 'Copy', templateId: template.id },
    });
    expect(copied.status).toBe(201);
    expect(copied.body.data.content).toEqual({ subject: 'S', body: 'Body', htmlBody: null });
  });
});

describe('records written indirectly', () => {
  /** The record as a client could PATCH it back: the update schema's fields, nulls only where it takes null. */
  function asUpdateBody(record: Record<string, unknown>, update: z.ZodObject): Record<string, unknown> {
    const shape = update.shape as Record<string, z.ZodType>;
    return Object.fromEntries(
      Object.entries(record).filter(
        ([key, value]) => key in shape && (value !== null || shape[key]?.safeParse(null).success),
      ),
    );
  }

  function expectValid(what: string, record: unknown, response: z.ZodType, update?: z.ZodObject) {
    expect(response.safeParse(record).error, `${what} as ${JSON.stringify(record)}`).toBeUndefined();
    if (update) {
      const body = asUpdateBody(record as Record<string, unknown>, update);
      expect(update.safeParse(body).error, `${what} PATCHed back as ${JSON.stringify(body)}`).toBeUndefined();
    }
  }

  it('read back through the API, pass the contract response and update schemas of their records', async () => {
    // A form submission makes a customer.
    const form = await post('/marketing/forms', {
      name: 'Lead',
      fields: [{ key: 'email', label: 'Email', type: 'email', required: true }],
    });
    const submission = await post(`/marketing/forms/${form.id}/submissions`, {
      values: { email: `lead.${randomUUID().slice(0, 8)}@example.com` },
      respondentName: 'Lee  Van Dyke',
      respondentPhone: '+1 555 0100',
    });
    expectValid('submission', submission, V1FormSubmission);
    const lead = (await api('GET', `/customers/${submission.customerId}`)).body.data;
    expectValid('customer from a submission', lead, V1Customer, V1CustomerUpdate);
    const contact = await post('/contacts', {
      customerId: lead.id,
      firstName: lead.firstName,
      lastName: lead.lastName,
      communicationPreferences: { ...ALL_NO, marketing: true },
    });

    // An invite by contact takes the contact's customer; an RSVP by invite takes the invite's guest.
    const event = await post('/marketing/social-events', { name: 'Cars and coffee', startsAt: '2030-05-01T09:00:00Z' });
    const option = await post(`/marketing/social-events/${event.id}/rsvp-options`, { label: 'Coming' });
    const invite = await post(`/marketing/social-events/${event.id}/invites`, { contactId: contact.id });
    const rsvp = await post(`/marketing/social-events/${event.id}/rsvps`, {
      rsvpOptionId: option.id,
      inviteId: invite.id,
    });
    const readInvite = (await api('GET', `/marketing/social-events/${event.id}/invites/${invite.id}`)).body.data;
    expect(readInvite).toMatchObject({ customerId: lead.id, contactId: contact.id });
    expectValid('invite by contact', readInvite, V1SocialEventInvite);
    const readRsvp = (await api('GET', `/marketing/social-events/${event.id}/rsvps/${rsvp.id}`)).body.data;
    expect(readRsvp).toMatchObject({ customerId: lead.id, contactId: contact.id, inviteId: invite.id });
    expectValid('RSVP by invite', readRsvp, V1SocialEventRsvp, V1SocialEventRsvpUpdate);

    // A template copied into a step, and the step sent on both channels.
    const campaign = await post('/marketing/campaigns', { name: 'Indirect' });
    const audience = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'Lead',
      filter: { customerIds: [lead.id] },
    });
    const template = await post('/marketing/templates', {
      name: 'T',
      channel: 'email',
      subject: 'For {{fullName}} {{companyName}}',
      body: 'Hi {{firstName}}',
      htmlBody: '<p>Hi {{firstName}}</p>',
    });
    const emailStep = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'email',
      name: 'Copied',
      templateId: template.id,
    });
    const smsStep = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Text',
      content: { body: '{{firstName}} {{companyName}}' },
    });
    for (const step of [emailStep, smsStep]) {
      const read = (await api('GET', `/marketing/campaigns/${campaign.id}/content/${step.id}`)).body.data;
      expectValid(`content step ${step.name}`, read, V1CampaignContentStep, V1CampaignContentStepUpdate);
      const send = await post(`/marketing/campaigns/${campaign.id}/sends`, {
        contentStepId: step.id,
        audienceId: audience.id,
      });
      expect(send.sentCount, step.name).toBe(1);
      const readSend = (await api('GET', `/marketing/campaigns/${campaign.id}/sends/${send.id}`)).body.data;
      expectValid('campaign send', readSend, V1CampaignSend);
    }
    const threads = (await api('GET', '/communication-threads', { query: { customerId: lead.id } })).body.data;
    expect(threads.map((t: { channel: string }) => t.channel).sort()).toEqual(['email', 'sms']);
    for (const thread of threads) {
      expectValid(`${thread.channel} thread`, thread, V1CommunicationThread, V1CommunicationThreadUpdate);
      const messages = (await api('GET', `/communication-threads/${thread.id}/messages`)).body.data;
      expect(messages).toHaveLength(1);
      expectValid(`${thread.channel} message`, messages[0], V1CommunicationMessage, V1CommunicationMessageUpdate);
    }
    // An empty variable ({{companyName}}) leaves the rest of the subject as written.
    const email = threads.find((t: { channel: string }) => t.channel === 'email');
    expect(email.subject).toBe('For Lee Van Dyke ');
  });
});

describe('audiences and sends', () => {
  it('messages each consenting recipient of the audience once, rendered for them, in their thread', async () => {
    const location = await post('/locations', { name: 'North lot' });
    const elsewhere = await post('/locations', { name: 'South lot' });
    const ada = await customer({ email: 'ada@example.com', locationId: location.id }, { marketing: true });
    await post('/cars', { year: 1965, make: 'Jaguar', model: 'E-Type', customerId: ada.id, isForSale: true });
    const noConsent = await customer({ firstName: 'Bob', email: 'bob@example.com', locationId: location.id });
    const noEmail = await customer(
      { firstName: 'Cy', phone: '+15555550111', locationId: location.id },
      { marketing: true },
    );
    const gone = await customer(
      { firstName: 'Di', email: 'di@example.com', locationId: location.id },
      { marketing: true },
    );
    await api('DELETE', `/customers/${gone.id}`);
    await customer({ firstName: 'Ed', email: 'ed@example.com', locationId: elsewhere.id }, { marketing: true });

    const campaign = await post('/marketing/campaigns', { name: 'North lot news' });
    const audience = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'North lot',
      filter: { locationId: location.id },
    });
    const step = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'email',
      name: 'News',
      content: { subject: 'News for {{firstName}}', body: 'Hello {{fullName}}' },
    });
    const outbox = server.messaging.email as OutboxProvider;
    const before = outbox.deliveries.length;
    const send = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: step.id,
      audienceId: audience.id,
    });
    expect(send).toMatchObject({
      campaignId: campaign.id,
      contentStepId: step.id,
      audienceId: audience.id,
      channel: 'email',
      status: 'completed',
      recipientCount: 3,
      sentCount: 1,
      failedCount: 0,
      skippedCount: 2,
    });
    const delivered = outbox.deliveries.slice(before).map((d) => d.message);
    expect(delivered).toEqual([
      expect.objectContaining({ to: 'ada@example.com', subject: 'News for Ada', text: 'Hello Ada Lovelace' }),
    ]);
    const threads = await api('GET', '/communication-threads', { query: { customerId: ada.id, channel: 'email' } });
    const messages = await api('GET', `/communication-threads/${threads.body.data[0].id}/messages`);
    expect(messages.body.data).toEqual([expect.objectContaining({ campaignSendId: send.id, status: 'sent' })]);
    for (const skipped of [noConsent, noEmail]) {
      const t = await api('GET', '/communication-threads', { query: { customerId: skipped.id } });
      expect(t.body.total).toBe(0);
    }

    // Sending the step again is the same send and messages no one.
    const again = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: step.id,
      audienceId: audience.id,
    });
    expect(again.id).toBe(send.id);
    expect(outbox.deliveries.length).toBe(before + 1);
    expect((await api('GET', `/marketing/campaigns/${campaign.id}/sends`)).body.total).toBe(1);

    // A sent step, its audience and its campaign are records now.
    expect(
      (await api('PATCH', `/marketing/campaigns/${campaign.id}/content/${step.id}`, { body: { name: 'x' } })).status,
    ).toBe(409);
    expect((await api('DELETE', `/marketing/campaigns/${campaign.id}/audiences/${audience.id}`)).status).toBe(409);
    expect((await api('DELETE', `/marketing/campaigns/${campaign.id}`)).status).toBe(409);

    // A send the server stopped midway resumes: customers already messaged are not messaged twice.
    await server.db('campaign_sends').where({ id: send.id }).update({ status: 'sending' });
    const late = await customer(
      { firstName: 'Flo', email: 'flo@example.com', locationId: location.id },
      { marketing: true },
    );
    const resumed = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: step.id,
      audienceId: audience.id,
    });
    expect(resumed).toMatchObject({
      id: send.id,
      status: 'completed',
      recipientCount: 4,
      sentCount: 2,
      skippedCount: 2,
    });
    expect(outbox.deliveries.slice(before + 1).map((d) => d.message.to)).toEqual(['flo@example.com']);
    expect(late.id).toBeDefined();
  });

  it('filters by cars for sale and by contact preference', async () => {
    const seller = await customer({ firstName: 'Sal', phone: '+15555550121' }, { marketing: true, socialEvents: true });
    await post('/cars', { year: 1970, make: 'Porsche', model: '911', customerId: seller.id, isForSale: true });
    const keeper = await customer({ firstName: 'Kip', phone: '+15555550122' }, { marketing: true });
    const campaign = await post('/marketing/campaigns', { name: 'Filters' });
    const step = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'S',
      content: { body: 'Hi {{firstName}}' },
    });
    const sellers = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'Sellers',
      filter: { hasCarsForSale: true, customerIds: [seller.id, keeper.id] },
    });
    const sms = server.messaging.sms as OutboxProvider;
    const before = sms.deliveries.length;
    const send = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: step.id,
      audienceId: sellers.id,
    });
    expect(send).toMatchObject({ recipientCount: 1, sentCount: 1 });
    expect(sms.deliveries.slice(before).map((d) => d.message.text)).toEqual(['Hi Sal']);

    const social = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'Event goers',
      filter: { contactPreference: 'socialEvents', customerIds: [seller.id, keeper.id] },
    });
    const step2 = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'S2',
      content: { body: 'Party' },
    });
    const send2 = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: step2.id,
      audienceId: social.id,
    });
    expect(send2).toMatchObject({ recipientCount: 1, sentCount: 1 });

    const foreign = await api('POST', `/marketing/campaigns/${campaign.id}/audiences`, {
      body: { name: 'x', filter: { locationId: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(foreign.body.details).toEqual([{ path: 'filter.locationId', message: 'Location not found' }]);
    const otherCampaign = await post('/marketing/campaigns', { name: 'Other' });
    const crossed = await api('POST', `/marketing/campaigns/${otherCampaign.id}/sends`, {
      body: { contentStepId: step.id, audienceId: social.id },
    });
    expect(crossed.status).toBe(400);
    expect(crossed.body.details.map((d: { path: string }) => d.path)).toEqual(['contentStepId', 'audienceId']);
  });

  it('previews an audience’s members as a send resolves them, paged, filtered by consent', async () => {
    const lot = await post('/locations', { name: 'Preview lot' });
    const yes = await customer({ firstName: 'Yan', email: 'yan@example.com', locationId: lot.id }, { marketing: true });
    const no = await customer({ firstName: 'Nia', email: 'nia@example.com', locationId: lot.id });
    const sms = await customer({ firstName: 'Sid', phone: '+15555550131', locationId: lot.id }, { marketing: true });
    const gone = await customer({ firstName: 'Gus', locationId: lot.id }, { marketing: true });
    await api('DELETE', `/customers/${gone.id}`);
    await customer({ firstName: 'Out', email: 'out@example.com' }, { marketing: true });
    const campaign = await post('/marketing/campaigns', { name: 'Preview' });
    const audience = await post(`/marketing/campaigns/${campaign.id}/audiences`, {
      name: 'Lot',
      filter: { locationId: lot.id },
    });
    const path = `/marketing/campaigns/${campaign.id}/audiences/${audience.id}/members`;

    const all = await api('GET', path);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 1, limit: 50, total: 3 });
    // Most recently updated first, as every list; each member is the customer record plus its consent.
    expect(
      all.body.data.map((m: { firstName: string; allowsMarketing: boolean }) => [m.firstName, m.allowsMarketing]),
    ).toEqual([
      ['Sid', true],
      ['Nia', false],
      ['Yan', true],
    ]);
    expect(all.body.data[2]).toMatchObject({ id: yes.id, email: 'yan@example.com', locationId: lot.id });

    const consenting = await api('GET', path, { query: { allowsMarketing: 'true' } });
    expect(consenting.body.data.map((m: { id: string }) => m.id)).toEqual([sms.id, yes.id]);
    expect(consenting.body.total).toBe(2);
    const refusing = await api('GET', path, { query: { allowsMarketing: 'false' } });
    expect(refusing.body.data.map((m: { id: string }) => m.id)).toEqual([no.id]);
    const second = await api('GET', path, { query: { limit: '2', page: '2' } });
    expect(second.body).toMatchObject({ total: 3, data: [{ id: yes.id }] });

    // The preview names the recipients the send then messages (those with an address for the channel).
    const step = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'email',
      name: 'Hello',
      content: { subject: 'Hi', body: 'Hi {{firstName}}' },
    });
    const send = await post(`/marketing/campaigns/${campaign.id}/sends`, {
      contentStepId: step.id,
      audienceId: audience.id,
    });
    expect(send).toMatchObject({ recipientCount: 3, sentCount: 1, skippedCount: 2 });

    // Members are customer records: a key that may read campaigns but not customers is refused.
    const narrow = await server.createKey(teamId, ['read:campaigns']);
    const refused = await apiCaller(server.baseUrl, narrow.key)('GET', path);
    expect(refused.status).toBe(403);
    const wrongCampaign = await api(
      'GET',
      path.replace(campaign.id, (await post('/marketing/campaigns', { name: 'x' })).id),
    );
    expect(wrongCampaign.status).toBe(404);
    expect((await api('GET', path, { query: { allowsMarketing: 'maybe' } })).status).toBe(400);
  });

  it('deletes an unsent campaign with its steps and audiences', async () => {
    const campaign = await post('/marketing/campaigns', { name: 'Drop me' });
    await post(`/marketing/campaigns/${campaign.id}/audiences`, { name: 'All' });
    await post(`/marketing/campaigns/${campaign.id}/content`, { type: 'sms', name: 'S', content: { body: 'x' } });
    const res = await api('DELETE', `/marketing/campaigns/${campaign.id}`);
    expect(res.body.data).toEqual({ id: campaign.id, deleted: true });
    for (const table of ['campaign_audiences', 'campaign_content_steps', 'campaigns']) {
      const col = table === 'campaigns' ? 'id' : 'campaign_id';
      expect(await server.db(table).where({ team_id: teamId, [col]: campaign.id })).toEqual([]);
    }
  });
});

describe('marketing calendar', () => {
  it('merges steps, posts and events in the window, in order, for keys that may see them', async () => {
    const campaign = await post('/marketing/campaigns', { name: 'Calendar' });
    const late = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Late',
      content: { body: 'x' },
      scheduledAt: '2031-03-20T10:00:00Z',
    });
    const early = await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Early',
      content: { body: 'x' },
      scheduledAt: '2031-03-02T10:00:00Z',
    });
    await post(`/marketing/campaigns/${campaign.id}/content`, {
      type: 'sms',
      name: 'Outside',
      content: { body: 'x' },
      scheduledAt: '2031-05-01T10:00:00Z',
    });
    const window = { from: '2031-03-01T00:00:00Z', to: '2031-04-01T00:00:00+00:00' };
    const res = await api('GET', '/marketing/calendar', { query: window });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        kind: 'content_step',
        id: early.id,
        title: 'Early',
        at: '2031-03-02T10:00:00.000Z',
        endsAt: null,
        campaignId: campaign.id,
        status: 'scheduled',
      },
      {
        kind: 'content_step',
        id: late.id,
        title: 'Late',
        at: '2031-03-20T10:00:00.000Z',
        endsAt: null,
        campaignId: campaign.id,
        status: 'scheduled',
      },
    ]);
    const account = await post('/marketing/social-accounts', { network: 'instagram', handle: 'vsf.calendar' });
    const scheduledPost = await post('/marketing/social-posts', {
      socialAccountId: account.id,
      body: 'Open house Saturday\nBring your friends',
      scheduledAt: '2031-03-10T12:00:00Z',
    });
    const event = await post('/marketing/social-events', {
      name: 'Cars and coffee',
      startsAt: '2031-03-15T09:00:00Z',
      endsAt: '2031-03-15T12:00:00Z',
    });
    const merged = (await api('GET', '/marketing/calendar', { query: window })).body.data;
    expect(merged.map((e: { kind: string; id: string }) => [e.kind, e.id])).toEqual([
      ['content_step', early.id],
      ['social_post', scheduledPost.id],
      ['social_event', event.id],
      ['content_step', late.id],
    ]);
    expect(merged[1]).toMatchObject({
      title: 'Open house Saturday',
      at: '2031-03-10T12:00:00.000Z',
      status: 'scheduled',
    });
    expect(merged[2]).toMatchObject({ title: 'Cars and coffee', endsAt: '2031-03-15T12:00:00.000Z' });

    const eventsOnly = await server.createKey(teamId, ['read:social-events']);
    const limited = await apiCaller(server.baseUrl, eventsOnly.key)('GET', '/marketing/calendar', { query: window });
    expect(limited.body.data.map((e: { kind: string; id: string }) => [e.kind, e.id])).toEqual([
      ['social_event', event.id],
    ]);
    const tooWide = await api('GET', '/marketing/calendar', {
      query: { from: '2030-01-01T00:00:00Z', to: '2032-01-01T00:00:00Z' },
    });
    expect(tooWide.status).toBe(400);
    const backwards = await api('GET', '/marketing/calendar', { query: { from: window.to, to: window.from } });
    expect(backwards.body.details).toEqual([{ path: 'to', message: 'to must be after from' }]);
  });
});
