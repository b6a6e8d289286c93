import { ALL_SCOPES, apiEndpoints, type EndpointDefinition } from '@vsf/contract';
import {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  VsfAdminClient,
  VsfClient,
} from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let server: TestServer;
let client: VsfClient;
const called = new Set<string>();

/** Wraps every generated method so the suite can prove it called each endpoint at least once. */
function tracked<T extends object>(target: T, path: string[] = []): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (typeof prop !== 'string') return value;
      if (typeof value === 'function') {
        return (...args: unknown[]) => {
          called.add([...path, prop.replace(/All$/, '')].join('.'));
          return value.apply(obj, args);
        };
      }
      if (value && typeof value === 'object' && prop !== '_client' && !(value instanceof Headers)) {
        return tracked(value as object, [...path, prop]);
      }
      return value;
    },
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  client = tracked(new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' }));
});
afterAll(() => server?.close());

describe('SDK against the reference server', () => {
  it('round-trips every core resource', async () => {
    expect((await client.auth.getKey()).scopes).toHaveLength(ALL_SCOPES.length);

    const location = await client.locations.create({ name: 'Main' });
    expect(await client.locations.get(location.id)).toEqual(location);
    expect((await client.locations.update(location.id, { city: 'Austin' })).city).toBe('Austin');
    expect((await client.locations.list()).total).toBe(1);

    const customer = await client.customers.create({ firstName: 'Ada', lastName: 'Lovelace', locationId: location.id });
    expect((await client.customers.get(customer.id)).firstName).toBe('Ada');
    expect((await client.customers.update(customer.id, { city: 'London' })).city).toBe('London');

    const contact = await client.contacts.create({ customerId: customer.id, firstName: 'Pat', lastName: 'Lee' });
    expect((await client.contacts.get(contact.id)).role).toBe('other');
    expect((await client.contacts.update(contact.id, { role: 'bookkeeper' })).role).toBe('bookkeeper');
    expect((await client.contacts.list({ customerId: customer.id })).data).toHaveLength(1);
    expect(await client.contacts.delete(contact.id)).toEqual({ id: contact.id, deleted: true });

    const car = await client.cars.create({ year: 1967, make: 'Ford', model: 'Mustang', customerId: customer.id });
    expect(await client.cars.get(car.id)).toEqual(car);
    expect((await client.cars.update(car.id, { color: 'red' })).color).toBe('red');

    expect(await client.customers.delete(customer.id)).toEqual({ id: customer.id, deleted: true });
    expect((await client.customers.list({ includeDeleted: true, ids: [customer.id] })).total).toBe(1);
    const unused = await client.locations.create({ name: 'Spare' });
    expect((await client.locations.delete(unused.id)).deleted).toBe(true);

    const types = await client.eventTypes.list({ scope: 'vehicle' });
    expect(types.data.map((t) => t.value)).toContain('drop_off');
  });

  it('pages through every car with listAll, in the server order', async () => {
    for (let i = 0; i < 5; i++) await client.cars.create({ year: 2000 + i, make: 'Page', model: `M${i}` });
    const seen: string[] = [];
    for await (const car of client.cars.listAll()) seen.push(car.id);
    const page = await client.cars.list({ limit: 2 });
    expect(page.total).toBe(seen.length);
    const walked: string[] = [];
    for await (const car of client.cars.list({ limit: 2 })) walked.push(car.id);
    expect(walked).toEqual(seen);
  });

  it('surfaces the server errors as typed errors', async () => {
    await expect(client.cars.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    const invalid = await client.cars.create({ year: 1800, make: 'A', model: 'B' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(BadRequestError);
    expect((invalid as BadRequestError).details).toEqual([{ path: 'year', message: expect.any(String) }]);

    const team = await server.createTeam();
    const narrow = await server.createKey(team.id, ['read:customers']);
    const narrowClient = new VsfClient({ apiKey: narrow.key, baseUrl: server.baseUrl, logLevel: 'off' });
    const denied = await narrowClient.cars.list().catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PermissionDeniedError);
    expect((denied as PermissionDeniedError).missingScope).toBe('read:cars');

    const admin = new VsfAdminClient({ adminToken: server.adminToken, baseUrl: server.adminBaseUrl, logLevel: 'off' });
    await admin.keys.revoke(narrow.id);
    const revoked = await narrowClient.customers.list().catch((e: unknown) => e);
    expect(revoked).toBeInstanceOf(AuthenticationError);
    expect((revoked as AuthenticationError).message).toBe('API key revoked');
  });

  it("reads the team's changes from the events feed, page by page from a cursor", async () => {
    const start = (await client.events.list({ limit: 0 })).nextCursor;
    const car = await client.cars.create({ year: 1961, make: 'Jaguar', model: 'E-Type' });
    await client.cars.update(car.id, { color: 'green' });
    const page = await client.events.list({ after: start, limit: 1 });
    expect(page.data.map((e) => [e.type, e.recordId])).toEqual([['car.created', car.id]]);
    expect(page.hasMore).toBe(true);
    const next = await client.events.list({ after: page.nextCursor });
    expect(next.data.map((e) => e.type)).toEqual(['car.updated']);
    expect(next.data[0]?.data).toMatchObject({ id: car.id, color: 'green' });
  });

  it('manages webhook endpoints: the secret in the create only, and the delivery log', async () => {
    const hook = await client.webhooks.create({ url: 'https://hooks.example.com/vsf', eventTypes: ['car.created'] });
    expect(hook.secret).toMatch(/^whsec_/);
    const { secret: _secret, ...shown } = hook;
    expect(await client.webhooks.get(hook.id)).toEqual(shown);
    expect((await client.webhooks.update(hook.id, { enabled: false })).enabled).toBe(false);
    expect((await client.webhooks.list()).data.map((w) => w.id)).toContain(hook.id);
    const log = await client.webhooks.listDeliveries(hook.id, { status: 'pending' });
    expect(log.total).toBe(0);
    expect((await client.webhooks.delete(hook.id)).deleted).toBe(true);
  });

  it('makes a retried create land once: the server replays the idempotent response', async () => {
    const idempotencyKey = crypto.randomUUID();
    const body = { year: 1990, make: 'Once', model: 'Only' };
    const first = await client.cars.create(body, { idempotencyKey });
    const again = await client.cars.create(body, { idempotencyKey }).withResponse();
    expect(again.data).toEqual(first);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
  });

  it('drives the admin API', async () => {
    const admin = new VsfAdminClient({ adminToken: server.adminToken, baseUrl: server.adminBaseUrl, logLevel: 'off' });
    const team = await admin.teams.create({ name: 'Sdk Team' });
    expect((await admin.teams.list()).map((t) => t.id)).toContain(team.id);
    expect((await admin.teams.update(team.id, { apiEnabled: false })).apiEnabled).toBe(false);
    const key = await admin.keys.create(team.id, { name: 'k', scopes: ['read:cars'] });
    expect((await admin.keys.update(key.id, { name: 'renamed' })).name).toBe('renamed');
    expect((await admin.keys.list(team.id)).map((k) => k.id)).toEqual([key.id]);
  });

  it('logs a drop-off into a spot, uploads photos into its session, and picks the car up', async () => {
    const zone = await client.parking.zones.create({ name: 'Hall A' });
    expect((await client.parking.zones.get(zone.id)).name).toBe('Hall A');
    expect((await client.parking.zones.update(zone.id, { capacity: 10 })).capacity).toBe(10);
    expect((await client.parking.zones.list()).total).toBeGreaterThan(0);
    const spot = await client.parking.spots.create({ name: 'A-1', parkingZoneId: zone.id });
    expect((await client.parking.spots.get(spot.id)).name).toBe('A-1');
    expect((await client.parking.spots.list({ name: 'A-1' })).data[0]?.id).toBe(spot.id);
    const car = await client.cars.create({ year: 1972, make: 'Porsche', model: '911' });

    const event = await client.cars.events.create(car.id, { activityType: 'drop_off', parkingSpotId: spot.id });
    expect((await client.cars.get(car.id)).parkingSpot).toBe('A-1');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await client.cars.photos.upload(car.id, {
      sessionId: event.sessionId,
      file: png,
      filename: 'front.png',
    });
    expect(uploaded).toMatchObject({ contentType: 'image/png', sizeBytes: png.length });
    // The photo's url resolves through client.media.download: the raw Response, bytes unread until asked.
    const mediaId = uploaded.url.split('/').pop()!;
    const download = await client.media.download(mediaId);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toContain('front.png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(png);
    await expect(client.media.download('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    const created = await client.cars.photos.create(car.id, {
      sessionId: event.sessionId,
      filename: 'rear.png',
      contentType: 'image/png',
      base64: png.toString('base64'),
    });
    expect(await client.cars.photos.get(car.id, created.id)).toEqual(created);
    expect(await client.cars.events.get(car.id, event.id)).toEqual(event);
    expect((await client.cars.photos.list(car.id)).data.map((p) => p.id).sort()).toEqual(
      [uploaded.id, created.id].sort(),
    );
    const stays = await client.parking.assignments.list({ carId: car.id, active: true });
    expect((await client.parking.assignments.get(stays.data[0]!.id)).parkingSpotId).toBe(spot.id);

    await client.cars.events.create(car.id, { activityType: 'pick_up' });
    expect((await client.cars.events.list(car.id)).total).toBe(2);
    expect((await client.cars.get(car.id)).parkingSpotId).toBeNull();
    expect((await client.parking.spots.update(spot.id, { isActive: false })).isActive).toBe(false);
    const spare = await client.parking.spots.create({ name: 'A-2', parkingZoneId: zone.id });
    expect((await client.parking.spots.delete(spare.id)).deleted).toBe(true);
    const emptyZone = await client.parking.zones.create({ name: 'Empty' });
    expect((await client.parking.zones.delete(emptyZone.id)).deleted).toBe(true);
  });

  it('manages custom event types', async () => {
    const type = await client.eventTypes.create({ value: 'detailing', name: 'Detailing', scope: 'vehicle' });
    expect((await client.eventTypes.get(type.id)).value).toBe('detailing');
    expect((await client.eventTypes.update(type.id, { name: 'Full detailing' })).name).toBe('Full detailing');
  });

  it('schedules, reschedules and cancels appointments', async () => {
    const car = await client.cars.create({ year: 1999, make: 'Mazda', model: 'Miata' });
    const pickUpType = (await client.eventTypes.list({ scope: 'vehicle' })).data.find((t) => t.value === 'pick_up');
    const kind = await client.appointmentTypes.create({ name: 'Spring pick-up', eventTypeId: pickUpType!.id });
    expect((await client.appointmentTypes.get(kind.id)).name).toBe('Spring pick-up');
    expect((await client.appointmentTypes.update(kind.id, { durationMinutes: 30 })).durationMinutes).toBe(30);
    expect((await client.appointmentTypes.list()).total).toBeGreaterThan(0);
    const appointment = await client.appointments.create({
      appointmentTypeId: kind.id,
      carId: car.id,
      startAt: '2030-04-01T10:00:00Z',
      endAt: '2030-04-01T10:30:00Z',
    });
    expect((await client.appointments.get(appointment.id)).eventType).toBe('pick_up');
    expect((await client.appointments.update(appointment.id, { notes: 'gate 2' })).notes).toBe('gate 2');
    expect((await client.appointments.list({ carId: car.id })).total).toBe(1);
    expect((await client.appointments.cancel(appointment.id)).status).toBe('cancelled');
  });

  it('writes to customers and runs a campaign through threads, templates, audiences, steps and sends', async () => {
    const customer = await client.customers.create({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
    const preferences = { invoices: false, estimates: false, scheduling: false, carUpdates: false, contracts: false };
    await client.contacts.create({
      customerId: customer.id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      communicationPreferences: { ...preferences, socialEvents: false, marketing: true },
    });
    const thread = await client.communicationThreads.create({ customerId: customer.id, channel: 'email' });
    expect((await client.communicationThreads.get(thread.id)).channel).toBe('email');
    expect((await client.communicationThreads.update(thread.id, { subject: 'Storage' })).subject).toBe('Storage');
    expect((await client.communicationThreads.list({ customerId: customer.id })).total).toBe(1);
    const draft = await client.communicationThreads.messages.create(thread.id, { body: 'Draft' });
    expect(draft.status).toBe('draft');
    expect((await client.communicationThreads.messages.update(thread.id, draft.id, { body: 'Final' })).body).toBe(
      'Final',
    );
    expect((await client.communicationThreads.messages.send(thread.id, draft.id)).status).toBe('sent');
    expect((await client.communicationThreads.messages.get(thread.id, draft.id)).provider).toBe('outbox');
    expect((await client.communicationThreads.messages.list(thread.id, { status: 'sent' })).total).toBe(1);
    const scrap = await client.communicationThreads.messages.create(thread.id, { body: 'Scrap' });
    expect((await client.communicationThreads.messages.delete(thread.id, scrap.id)).deleted).toBe(true);

    const template = await client.marketing.templates.create({
      name: 'Hi',
      channel: 'email',
      body: 'Hi {{firstName}}',
    });
    expect((await client.marketing.templates.get(template.id)).variables).toEqual(['firstName']);
    expect((await client.marketing.templates.update(template.id, { subject: 'Hello' })).subject).toBe('Hello');
    expect((await client.marketing.templates.list({ channel: 'email' })).total).toBeGreaterThan(0);
    const campaign = await client.marketing.campaigns.create({ name: 'Spring' });
    expect((await client.marketing.campaigns.get(campaign.id)).status).toBe('draft');
    expect((await client.marketing.campaigns.update(campaign.id, { status: 'active' })).status).toBe('active');
    expect((await client.marketing.campaigns.list({ status: 'active' })).total).toBe(1);
    const audience = await client.marketing.campaigns.audiences.create(campaign.id, {
      name: 'Ada',
      filter: { customerIds: [customer.id] },
    });
    expect((await client.marketing.campaigns.audiences.get(campaign.id, audience.id)).filter.customerIds).toEqual([
      customer.id,
    ]);
    expect(
      (await client.marketing.campaigns.audiences.update(campaign.id, audience.id, { name: 'Just Ada' })).name,
    ).toBe('Just Ada');
    expect((await client.marketing.campaigns.audiences.list(campaign.id)).total).toBe(1);
    const members = await client.marketing.campaigns.audiences.listMembers(campaign.id, audience.id, {
      allowsMarketing: true,
    });
    expect(members.data.map((m) => [m.id, m.allowsMarketing])).toEqual([[customer.id, true]]);
    const step = await client.marketing.campaigns.content.create(campaign.id, {
      type: 'email',
      name: 'Invite',
      templateId: template.id,
      scheduledAt: '2031-01-10T09:00:00Z',
    });
    expect((await client.marketing.campaigns.content.get(campaign.id, step.id)).content?.body).toBe('Hi {{firstName}}');
    expect((await client.marketing.campaigns.content.update(campaign.id, step.id, { order: 5 })).order).toBe(5);
    expect((await client.marketing.campaigns.content.list(campaign.id)).total).toBe(1);
    const calendar = await client.marketing.calendar({ from: '2031-01-01T00:00:00Z', to: '2031-02-01T00:00:00Z' });
    expect(calendar.map((e) => e.id)).toEqual([step.id]);
    const send = await client.marketing.campaigns.sends.create(campaign.id, {
      contentStepId: step.id,
      audienceId: audience.id,
    });
    expect(send.sentCount).toBe(1);
    expect((await client.marketing.campaigns.sends.get(campaign.id, send.id)).status).toBe('completed');
    expect((await client.marketing.campaigns.sends.list(campaign.id)).total).toBe(1);

    const scratch = await client.marketing.campaigns.create({ name: 'Scratch' });
    const spareAudience = await client.marketing.campaigns.audiences.create(scratch.id, { name: 'All' });
    expect((await client.marketing.campaigns.audiences.delete(scratch.id, spareAudience.id)).deleted).toBe(true);
    const spareStep = await client.marketing.campaigns.content.create(scratch.id, {
      type: 'sms',
      name: 'S',
      content: { body: 'x' },
    });
    expect((await client.marketing.campaigns.content.delete(scratch.id, spareStep.id)).deleted).toBe(true);
    expect((await client.marketing.campaigns.delete(scratch.id)).deleted).toBe(true);
    expect((await client.marketing.templates.delete(template.id)).deleted).toBe(true);
  });

  it('runs the marketing engagement areas: forms, social events, social posts, assets', async () => {
    const m = client.marketing;
    const form = await m.forms.create({
      name: 'Enquiry',
      fields: [{ key: 'email', label: 'Email', type: 'email', required: true }],
    });
    expect((await m.forms.get(form.id)).fields[0]).toMatchObject({ key: 'email', required: true, options: null });
    expect((await m.forms.update(form.id, { description: 'Website' })).description).toBe('Website');
    expect((await m.forms.list({ isActive: true })).data.map((f) => f.id)).toContain(form.id);
    const submission = await m.forms.submissions.create(form.id, {
      values: { email: 'sdk-lead@example.com' },
      respondentName: 'Sdk Lead',
    });
    expect(submission.customerId).toEqual(expect.any(String));
    expect(await m.forms.submissions.get(form.id, submission.id)).toEqual(submission);
    expect((await m.forms.submissions.list(form.id)).total).toBe(1);
    const emptyForm = await m.forms.create({ name: 'Unused', fields: [] });
    expect(await m.forms.delete(emptyForm.id)).toEqual({ id: emptyForm.id, deleted: true });

    const customer = await client.customers.create({ firstName: 'Guest', lastName: 'Sdk' });
    const event = await m.socialEvents.create({ name: 'Cars and coffee', startsAt: '2030-05-01T09:00:00Z' });
    expect((await m.socialEvents.get(event.id)).status).toBe('scheduled');
    expect((await m.socialEvents.update(event.id, { capacity: 50 })).capacity).toBe(50);
    expect((await m.socialEvents.list()).data.map((e) => e.id)).toContain(event.id);
    const yes = await m.socialEvents.rsvpOptions.create(event.id, { label: 'Attending' });
    expect((await m.socialEvents.rsvpOptions.get(event.id, yes.id)).attending).toBe(true);
    expect((await m.socialEvents.rsvpOptions.update(event.id, yes.id, { sortOrder: 1 })).sortOrder).toBe(1);
    expect((await m.socialEvents.rsvpOptions.list(event.id)).total).toBe(1);
    const invite = await m.socialEvents.invites.create(event.id, { customerId: customer.id });
    expect((await m.socialEvents.invites.get(event.id, invite.id)).customerId).toBe(customer.id);
    expect((await m.socialEvents.invites.list(event.id)).total).toBe(1);
    const rsvp = await m.socialEvents.rsvps.create(event.id, { rsvpOptionId: yes.id, inviteId: invite.id });
    expect((await m.socialEvents.rsvps.get(event.id, rsvp.id)).customerId).toBe(customer.id);
    expect((await m.socialEvents.rsvps.update(event.id, rsvp.id, { guestCount: 2 })).guestCount).toBe(2);
    expect((await m.socialEvents.rsvps.list(event.id)).total).toBe(1);
    const spare = await m.socialEvents.rsvpOptions.create(event.id, { label: 'Maybe' });
    expect((await m.socialEvents.rsvpOptions.delete(event.id, spare.id)).deleted).toBe(true);
    const other = await client.customers.create({ firstName: 'Other', lastName: 'Guest' });
    const unanswered = await m.socialEvents.invites.create(event.id, { customerId: other.id });
    expect((await m.socialEvents.invites.delete(event.id, unanswered.id)).deleted).toBe(true);
    expect(await m.socialEvents.delete(event.id)).toEqual({ id: event.id, deleted: true });

    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const folder = await m.assetFolders.create({ name: 'Events' });
    expect((await m.assetFolders.get(folder.id)).parentId).toBeNull();
    expect((await m.assetFolders.update(folder.id, { name: 'Social' })).name).toBe('Social');
    expect((await m.assetFolders.list()).data.map((f) => f.id)).toContain(folder.id);
    const asset = await m.assets.create({ filename: 'banner.png', contentType: 'image/png', base64: png });
    expect((await m.assets.get(asset.id)).url).toBe(`/api/media/${asset.id}`);
    expect((await m.assets.update(asset.id, { folderId: folder.id })).folderId).toBe(folder.id);
    expect((await m.assets.list({ folderId: folder.id })).total).toBe(1);

    const account = await m.socialAccounts.create({ network: 'instagram', handle: 'vsf_sdk' });
    expect((await m.socialAccounts.get(account.id)).handle).toBe('vsf_sdk');
    expect((await m.socialAccounts.update(account.id, { displayName: 'VSF' })).displayName).toBe('VSF');
    expect((await m.socialAccounts.list()).total).toBe(1);
    const post = await m.socialPosts.create({
      socialAccountId: account.id,
      body: 'Open house',
      mediaUrls: [asset.url],
    });
    expect((await m.socialPosts.get(post.id)).status).toBe('draft');
    expect((await m.socialPosts.update(post.id, { body: 'Open house Saturday' })).body).toBe('Open house Saturday');
    expect((await m.socialPosts.list()).total).toBe(1);
    expect(await m.socialPosts.publish(post.id)).toMatchObject({ status: 'published', provider: 'outbox' });
    expect((await m.socialPosts.delete(post.id)).deleted).toBe(true);
    expect((await m.socialAccounts.delete(account.id)).deleted).toBe(true);
    expect((await m.assets.delete(asset.id)).deleted).toBe(true);
    expect((await m.assetFolders.delete(folder.id)).deleted).toBe(true);
  });

  it('called every generated method of VsfClient', () => {
    const expected = (Object.values(apiEndpoints) as EndpointDefinition[]).map((e) =>
      [...e.sdk.namespace, e.sdk.method].join('.'),
    );
    expect([...expected].filter((m) => !called.has(m))).toEqual([]);
  });
});
