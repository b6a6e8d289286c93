import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES } from '@vsf/contract';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxProvider } from '../src/providers/messaging/outbox-provider.js';
import { startTestServer, type TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller, isApiError } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { ODD_URLS } from './support/odd-urls.js';

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP listener on loopback; recipients containing "bounce" are refused with a 550. */
async function startSmtp(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.includes('bounce')) {
        const error = new Error('Mailbox unavailable') as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise((resolve) => smtp.close(() => resolve())) };
}

/** A Twilio-shaped Messages API: numbers ending in 0000 are refused as Twilio refuses invalid numbers. */
async function startTwilioMock(): Promise<{
  url: string;
  requests: URLSearchParams[];
  auth: string[];
  server: Server;
}> {
  const requests: URLSearchParams[] = [];
  const auth: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push(form);
      auth.push(req.headers.authorization ?? '');
      res.setHeader('content-type', 'application/json');
      if (req.url !== '/2010-04-01/Accounts/AC_test/Messages.json') {
        res.statusCode = 404;
        return res.end(JSON.stringify({ code: 20404, message: 'Not found' }));
      }
      if (form.get('To')?.endsWith('0000')) {
        res.statusCode = 400;
        return res.end(JSON.stringify({ code: 21211, message: "The 'To' number is not a valid phone number." }));
      }
      res.statusCode = 201;
      res.end(JSON.stringify({ sid: `SM${requests.length.toString().padStart(32, '0')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, auth, server };
}

let outboxServer: TestServer;
let api: ApiCaller;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let twilio: Awaited<ReturnType<typeof startTwilioMock>>;
let providerServer: TestServer;
let providerApi: ApiCaller;

beforeAll(async () => {
  smtp = await startSmtp();
  twilio = await startTwilioMock();
  outboxServer = await startTestServer();
  api = apiCaller(outboxServer.baseUrl, (await outboxServer.createTeamWithKey(ALL_SCOPES)).key);
  providerServer = await startTestServer({
    messaging: {
      email: { kind: 'smtp', url: `smtp://127.0.0.1:${smtp.port}`, from: 'desk@vsf.example' },
      sms: { kind: 'twilio', accountSid: 'AC_test', authToken: 'secret', from: '+15550001111', baseUrl: twilio.url },
    },
  });
  providerApi = apiCaller(providerServer.baseUrl, (await providerServer.createTeamWithKey(ALL_SCOPES)).key);
});
afterAll(async () => {
  await outboxServer?.close();
  await providerServer?.close();
  await smtp?.close();
  twilio?.server.close();
});

async function customerWith(caller: ApiCaller, fields: Record<string, string | null>): Promise<string> {
  const res = await caller('POST', '/customers', { body: { firstName: 'Grace', lastName: 'Hopper', ...fields } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

async function thread(caller: ApiCaller, customerId: string, channel: 'email' | 'sms', subject?: string) {
  const res = await caller('POST', '/communication-threads', {
    body: { customerId, channel, ...(subject ? { subject } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
}

async function messageCount(server: TestServer, threadId: string): Promise<number> {
  const row = await server.db('communication_messages').where({ thread_id: threadId }).count({ n: '*' }).first();
  return Number(row?.n);
}

describe('threads and messages with the outbox provider', () => {
  it('stores a draft by default, then sends it through the outbox once', async () => {
    const customerId = await customerWith(api, { email: 'grace@example.com' });
    const threadId = await thread(api, customerId, 'email', 'Your Mustang');
    const draft = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Ready Friday' } });
    expect(draft.status).toBe(201);
    expect(draft.headers.get('location')).toBe(
      `/api/v1/communication-threads/${threadId}/messages/${draft.body.data.id}`,
    );
    expect(draft.body.data).toMatchObject({
      threadId,
      customerId,
      channel: 'email',
      direction: 'outbound',
      to: 'grace@example.com',
      subject: 'Your Mustang',
      body: 'Ready Friday',
      mediaUrls: [],
      status: 'draft',
      provider: null,
      providerMessageSid: null,
    });

    const edited = await api('PATCH', `/communication-threads/${threadId}/messages/${draft.body.data.id}`, {
      body: { body: 'Ready Saturday' },
    });
    expect(edited.body.data.body).toBe('Ready Saturday');

    const outbox = outboxServer.messaging.email as OutboxProvider;
    const before = outbox.deliveries.length;
    const sent = await api('POST', `/communication-threads/${threadId}/messages/${draft.body.data.id}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: 'sent', provider: 'outbox', from: 'vsf@localhost', error: null });
    expect(sent.body.data.providerMessageSid).toMatch(/^outbox_/);
    expect(sent.body.data.sentAt).toEqual(expect.any(String));
    expect(outbox.deliveries.slice(before).map((d) => d.message)).toEqual([
      expect.objectContaining({ id: draft.body.data.id, to: 'grace@example.com', text: 'Ready Saturday' }),
    ]);

    // Sending again changes nothing and delivers nothing; editing a sent message is a conflict.
    const again = await api('POST', `/communication-threads/${threadId}/messages/${draft.body.data.id}/send`);
    expect(again.body.data).toEqual(sent.body.data);
    expect(outbox.deliveries.length).toBe(before + 1);
    const edit = await api('PATCH', `/communication-threads/${threadId}/messages/${draft.body.data.id}`, {
      body: { body: 'x' },
    });
    expect(edit.status).toBe(409);
    expect(isApiError(edit.body)).toBe(true);
    const del = await api('DELETE', `/communication-threads/${threadId}/messages/${draft.body.data.id}`);
    expect(del.status).toBe(409);
    const scrap = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Scrap' } });
    const scrapped = await api('DELETE', `/communication-threads/${threadId}/messages/${scrap.body.data.id}`);
    expect(scrapped.body.data).toEqual({ id: scrap.body.data.id, deleted: true });
    expect((await api('GET', `/communication-threads/${threadId}/messages/${scrap.body.data.id}`)).status).toBe(404);

    const listed = await api('GET', `/communication-threads/${threadId}/messages`, { query: { status: 'sent' } });
    expect(listed.body).toMatchObject({ total: 1, data: [{ id: draft.body.data.id }] });
    const t = await api('GET', `/communication-threads/${threadId}`);
    expect(t.body.data.lastMessageAt).toEqual(expect.any(String));
  });

  it('sends at once with send: true, and concurrent sends of one draft deliver it once', async () => {
    const customerId = await customerWith(api, { phone: '+15555550142' });
    const threadId = await thread(api, customerId, 'sms');
    const now = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Hi', send: true } });
    expect(now.body.data).toMatchObject({ status: 'sent', provider: 'outbox', to: '+15555550142', subject: null });

    const outbox = outboxServer.messaging.sms as OutboxProvider;
    const draft = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Once' } });
    const before = outbox.deliveries.length;
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        api('POST', `/communication-threads/${threadId}/messages/${draft.body.data.id}/send`),
      ),
    );
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(outbox.deliveries.slice(before).filter((d) => d.message.id === draft.body.data.id)).toHaveLength(1);
  });

  it('refuses a message to a customer with no address for the channel, storing nothing', async () => {
    const customerId = await customerWith(api, { email: 'no-phone@example.com' });
    const threadId = await thread(api, customerId, 'sms');
    const res = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Hi', send: true } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.details[0].message).toMatch(
      /^The customer has no phone number for this sms thread; add one with PATCH \/customers\//,
    );
    expect(await messageCount(outboxServer, threadId)).toBe(0);
  });

  it('stores a draft while the customer has no address, and checks the recipient when it is sent', async () => {
    const customerId = await customerWith(api, { email: 'sms-later@example.com' });
    const threadId = await thread(api, customerId, 'sms');
    for (const body of [{ body: 'Hi' }, { body: 'Hi', send: false }]) {
      const draft = await api('POST', `/communication-threads/${threadId}/messages`, { body });
      expect(draft.status, JSON.stringify(draft.body)).toBe(201);
      expect(draft.body.data).toMatchObject({ status: 'draft', to: null });
    }
    const draft = (await api('GET', `/communication-threads/${threadId}/messages`)).body.data[0];
    const refused = await api('POST', `/communication-threads/${threadId}/messages/${draft.id}/send`);
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].message).toMatch(/^The customer has no phone number for this sms thread/);
    expect((await api('GET', `/communication-threads/${threadId}/messages/${draft.id}`)).body.data.status).toBe(
      'draft',
    );
    await api('PATCH', `/customers/${customerId}`, { body: { phone: '+15555550199' } });
    const sent = await api('POST', `/communication-threads/${threadId}/messages/${draft.id}/send`);
    expect(sent.body.data).toMatchObject({ status: 'sent', to: '+15555550199' });
  });

  it('sends a draft to the customer’s address of the moment, refusing when it is gone', async () => {
    const customerId = await customerWith(api, { email: 'old@example.com' });
    const threadId = await thread(api, customerId, 'email');
    const draft = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Later' } });
    await api('PATCH', `/customers/${customerId}`, { body: { email: 'new@example.com' } });
    const sent = await api('POST', `/communication-threads/${threadId}/messages/${draft.body.data.id}/send`);
    expect(sent.body.data).toMatchObject({ status: 'sent', to: 'new@example.com' });

    const second = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'Again' } });
    await api('PATCH', `/customers/${customerId}`, { body: { email: null } });
    const refused = await api('POST', `/communication-threads/${threadId}/messages/${second.body.data.id}/send`);
    expect(refused.status).toBe(400);
    const kept = await api('GET', `/communication-threads/${threadId}/messages/${second.body.data.id}`);
    expect(kept.body.data).toMatchObject({ status: 'draft', to: 'new@example.com' });
  });

  it('accepts https:// and team-owned media, and refuses anything else', async () => {
    const customerId = await customerWith(api, { email: 'media@example.com' });
    const threadId = await thread(api, customerId, 'email');
    const other = apiCaller(outboxServer.baseUrl, (await outboxServer.createTeamWithKey(ALL_SCOPES)).key);
    const foreignMedia = await photoOf(other);
    const ownMedia = await photoOf(api);
    for (const bad of [...ODD_URLS, 'http://example.com/a.jpg', '/api/media/not-a-uuid', foreignMedia]) {
      const res = await api('POST', `/communication-threads/${threadId}/messages`, {
        body: { body: 'x', mediaUrls: ['https://example.com/ok.jpg', bad] },
      });
      expect(res.status, bad).toBe(400);
      expect(isApiError(res.body)).toBe(true);
      expect(res.body.details[0].path).toBe('mediaUrls.1');
    }
    expect(await messageCount(outboxServer, threadId)).toBe(0);
    const draft = await api('POST', `/communication-threads/${threadId}/messages`, { body: { body: 'x' } });
    for (const bad of ODD_URLS) {
      const res = await api('PATCH', `/communication-threads/${threadId}/messages/${draft.body.data.id}`, {
        body: { mediaUrls: [bad] },
      });
      expect(res.status, bad).toBe(400);
      expect(res.body.details[0].path).toBe('mediaUrls.0');
    }
    expect(
      (await api('GET', `/communication-threads/${threadId}/messages/${draft.body.data.id}`)).body.data.mediaUrls,
    ).toEqual([]);
    const ok = await api('POST', `/communication-threads/${threadId}/messages`, {
      body: { body: 'x', mediaUrls: ['https://example.com/ok.jpg', ownMedia] },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.mediaUrls).toEqual(['https://example.com/ok.jpg', ownMedia]);
  });

  it('checks what a send needs when sending: a 400 naming it, and the draft stays unsent', async () => {
    const customerId = await customerWith(api, { email: 'ready@example.com', phone: '+15555550177' });
    const smsThread = await thread(api, customerId, 'sms');
    const emailThread = await thread(api, customerId, 'email');
    const outbox = outboxServer.messaging.sms as OutboxProvider;
    const sentBefore = outbox.deliveries.length;

    // send: true with nothing the channel delivers stores nothing.
    const htmlOnlySms = await api('POST', `/communication-threads/${smsThread}/messages`, {
      body: { htmlBody: '<p>Hi</p>', send: true },
    });
    expect(htmlOnlySms.status).toBe(400);
    expect(isApiError(htmlOnlySms.body)).toBe(true);
    expect(htmlOnlySms.body.details).toEqual([
      { path: 'body', message: expect.stringMatching(/sms message needs body/) },
    ]);
    expect(await messageCount(outboxServer, smsThread)).toBe(0);

    // A draft edited down to nothing can be kept, but not sent.
    const draft = (await api('POST', `/communication-threads/${smsThread}/messages`, { body: { body: 'Hi' } })).body
      .data;
    const emptied = await api('PATCH', `/communication-threads/${smsThread}/messages/${draft.id}`, {
      body: { body: null },
    });
    expect(emptied.status).toBe(200);
    const refused = await api('POST', `/communication-threads/${smsThread}/messages/${draft.id}/send`);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'validation_error', details: [{ path: 'body' }] });
    const kept = await api('GET', `/communication-threads/${smsThread}/messages/${draft.id}`);
    expect(kept.body.data).toMatchObject({ status: 'draft', body: null, sentAt: null, provider: null });
    expect(outbox.deliveries.length).toBe(sentBefore);

    await api('PATCH', `/communication-threads/${smsThread}/messages/${draft.id}`, { body: { body: 'Hi again' } });
    const sent = await api('POST', `/communication-threads/${smsThread}/messages/${draft.id}/send`);
    expect(sent.body.data).toMatchObject({ status: 'sent', body: 'Hi again' });

    // An email with an HTML part only is complete.
    const html = await api('POST', `/communication-threads/${emailThread}/messages`, {
      body: { htmlBody: '<p>Hi</p>', send: true },
    });
    expect(html.status).toBe(201);
    expect(html.body.data.status).toBe('sent');
  });

  it('filters threads by customer and channel', async () => {
    const customerId = await customerWith(api, { email: 'f@example.com', phone: '+15555550143' });
    const emailThread = await thread(api, customerId, 'email');
    await thread(api, customerId, 'sms');
    const res = await api('GET', '/communication-threads', { query: { customerId, channel: 'email' } });
    expect(res.body).toMatchObject({ total: 1, data: [{ id: emailThread }] });
  });
});

/** A car photo of the caller's team; returns its `/api/media/<id>` path. */
async function photoOf(caller: ApiCaller): Promise<string> {
  const car = await caller('POST', '/cars', { body: { year: 2001, make: 'Media', model: 'Car' } });
  const event = await caller('POST', `/cars/${car.body.data.id}/events`, { body: { activityType: 'inspection' } });
  const photo = await caller('POST', `/cars/${car.body.data.id}/photos`, {
    body: { sessionId: event.body.data.sessionId, filename: 'front.png', contentType: 'image/png', base64: TINY_PNG },
  });
  expect(photo.status, JSON.stringify(photo.body)).toBe(201);
  return photo.body.data.url;
}

describe('delivery through SMTP and a Twilio-style API', () => {
  it('delivers email to a real SMTP listener, with team media attached', async () => {
    const customerId = await customerWith(providerApi, { email: 'ada@example.com' });
    const threadId = await thread(providerApi, customerId, 'email', 'Storage renewal');
    const media = await photoOf(providerApi);
    const res = await providerApi('POST', `/communication-threads/${threadId}/messages`, {
      body: { textBody: 'Plain text', htmlBody: '<p>Rich <b>text</b></p>', mediaUrls: [media], send: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'sent', provider: 'smtp', from: 'desk@vsf.example', error: null });
    const mail = smtp.mails.find((m) => m.raw.includes(res.body.data.id));
    expect(mail).toBeDefined();
    expect(mail?.from).toBe('desk@vsf.example');
    expect(mail?.to).toEqual(['ada@example.com']);
    expect(mail?.raw).toContain('Subject: Storage renewal');
    expect(mail?.raw).toContain('Plain text');
    expect(mail?.raw).toMatch(/filename="?front\.png/);
    expect(res.body.data.providerMessageSid).toBe(mail?.raw.match(/^Message-ID: (.+)$/im)?.[1]?.trim());
  });

  it('keeps a message the SMTP server refuses, as failed with the reason, and can retry it', async () => {
    const customerId = await customerWith(providerApi, { email: 'bounce@example.com' });
    const threadId = await thread(providerApi, customerId, 'email', 'Hello');
    const res = await providerApi('POST', `/communication-threads/${threadId}/messages`, {
      body: { body: 'Will bounce', send: true },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'failed', provider: 'smtp', providerMessageSid: null });
    expect(res.body.data.error).toMatch(/SMTP delivery failed.*550|Mailbox unavailable/);
    const stored = await providerApi('GET', `/communication-threads/${threadId}/messages/${res.body.data.id}`);
    expect(stored.body.data).toMatchObject({ status: 'failed', body: 'Will bounce' });
    const retry = await providerApi('POST', `/communication-threads/${threadId}/messages/${res.body.data.id}/send`);
    expect(retry.body.data.status).toBe('failed');
  });

  it('posts SMS to the Twilio-style API with basic auth, and records a refusal', async () => {
    const okCustomer = await customerWith(providerApi, { phone: '+15555550199' });
    const okThread = await thread(providerApi, okCustomer, 'sms');
    const sent = await providerApi('POST', `/communication-threads/${okThread}/messages`, {
      body: { body: 'Your car is ready', mediaUrls: ['https://cdn.example.com/car.jpg'], send: true },
    });
    expect(sent.body.data).toMatchObject({ status: 'sent', provider: 'twilio', from: '+15550001111' });
    expect(sent.body.data.providerMessageSid).toMatch(/^SM\d{32}$/);
    const form = twilio.requests.at(-1);
    expect(Object.fromEntries(form ?? [])).toEqual({
      To: '+15555550199',
      From: '+15550001111',
      Body: 'Your car is ready',
      MediaUrl: 'https://cdn.example.com/car.jpg',
    });
    expect(twilio.auth.at(-1)).toBe(`Basic ${Buffer.from('AC_test:secret').toString('base64')}`);

    const badCustomer = await customerWith(providerApi, { phone: '+15555550000' });
    const badThread = await thread(providerApi, badCustomer, 'sms');
    const failed = await providerApi('POST', `/communication-threads/${badThread}/messages`, {
      body: { body: 'Nope', send: true },
    });
    expect(failed.status).toBe(201);
    expect(failed.body.data).toMatchObject({ status: 'failed', provider: 'twilio' });
    expect(failed.body.data.error).toContain("The 'To' number is not a valid phone number. (code 21211)");

    const privateMedia = await photoOf(providerApi);
    const mms = await providerApi('POST', `/communication-threads/${okThread}/messages`, {
      body: { body: 'Photo', mediaUrls: [privateMedia], send: true },
    });
    expect(mms.body.data.status).toBe('failed');
    expect(mms.body.data.error).toMatch(/public URLs/);
  });
});
