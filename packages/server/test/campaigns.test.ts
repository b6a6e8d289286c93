import { ALL_SCOPES } from '@vsf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxProvider } from '../src/providers/messaging/outbox-provider.js';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';

let server: TestServer;
let api: ApiCaller;
let teamId: string;

beforeAll(async () => {
  server = await startTestServer();
  const team = await server.createTeamWithKey(ALL_SCOPES);
  teamId = team.team.id;
  api = apiCaller(server.baseUrl, team.key);
});
afterAll(() => server?.close());

async function post(path: string, body: unknown) {
  const res = await api('POST', path, { body });
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body.data;
}

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
    const t = await post('/marketing/templates', {
      name: 'Renewal',
      channel: 'email',
      subject: 'Your storage, {{ firstName }}',
      body: 'Dear {{firstName}} {{lastName}} of {{companyName}}',
    });
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
    const emptied = await api('PATCH', `/marketing/templates/${t.id}`, { body: { body: null } });
    expect(emptied.status).toBe(400);
    const updated = await api('PATCH', `/marketing/templates/${t.id}`, { body: { body: 'Hello {{fullName}}' } });
    expect(updated.body.data.variables).toEqual(['firstName', 'fullName']);
    const smsList = await api('GET', '/marketing/templates', { query: { channel: 'sms' } });
    expect(smsList.body.data.map((x: { id: string }) => x.id)).not.toContain(t.id);
  });
});

describe('content steps', () => {
  it('copies a template into the step; later template edits leave the step alone', async () => {
    const template = await post('/marketing/templates', {
      name: 'Open house',
      channel: 'email',
      subject: 'Open house, {{firstName}}',
      body: 'Join us',
    });
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
    const empty = await api('POST', `/marketing/campaigns/${campaign.id}/content`, {
      body: { type: 'email', name: 'x' },
    });
    expect(empty.status).toBe(400);
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
