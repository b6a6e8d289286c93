import type { AddressInfo } from 'node:net';
import { ALL_SCOPES, V1Customer, V1CustomerCreate } from '@vsf/contract';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/http/create-app.js';
import type { SocialProvider } from '../src/providers/social/social-provider.js';
import type { TestServer } from '../src/testing/index.js';
import { type ApiCaller, apiCaller } from './support/api-caller.js';
import { TINY_PNG } from './support/endpoint-fixtures.js';
import { ODD_URLS } from './support/odd-urls.js';
import { teamServer } from './support/team-server.js';
import { snapshotTeamData } from './support/team-snapshot.js';

let server: TestServer;
let api: ApiCaller;
let key: string;
let teamId: string;

teamServer((team) => {
  ({ server, api, key, teamId } = team);
});

const db = () => server.db('customers');
const unique = () => Math.random().toString(36).slice(2, 10);

async function create(path: string, body: unknown) {
  const res = await api('POST', path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

const leadForm = () =>
  create('/marketing/forms', {
    name: 'Storage enquiry',
    fields: [
      { key: 'email', label: 'Email', type: 'email', required: true },
      { key: 'phone', label: 'Phone', type: 'phone' },
      { key: 'cars', label: 'Cars to store', type: 'number', required: true },
      { key: 'covered', label: 'Covered parking', type: 'boolean' },
      { key: 'from', label: 'Starting', type: 'date' },
      { key: 'plan', label: 'Plan', type: 'select', options: ['monthly', 'seasonal'] },
      { key: 'extras', label: 'Extras', type: 'multiselect', options: ['wash', 'battery', 'detailing'] },
      { key: 'notes', label: 'Notes', type: 'textarea' },
    ],
  });

describe('forms and submissions', () => {
  it('stores a valid submission exactly as the spec shows it and creates the customer from the respondent', async () => {
    const form = await leadForm();
    const email = `ada.${unique()}@example.com`;
    const res = await api('POST', `/marketing/forms/${form.id}/submissions`, {
      body: {
        values: { email, phone: '+1 (555) 010-0200', cars: 2, covered: false, from: '2026-12-01', extras: ['wash'] },
        respondentName: 'Ada King Lovelace',
        metadata: { page: 'https://example.com/storage', utm: { source: 'newsletter' } },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const submission = res.body.data;
    expect(Object.keys(submission).sort()).toEqual(
      [
        'id',
        'formId',
        'teamId',
        'customerId',
        'respondentEmail',
        'respondentName',
        'respondentPhone',
        'values',
        'fieldSnapshot',
        'metadata',
        'submittedAt',
      ].sort(),
    );
    expect(submission).toMatchObject({
      formId: form.id,
      teamId,
      respondentEmail: email,
      respondentName: 'Ada King Lovelace',
      respondentPhone: '+1 (555) 010-0200',
      metadata: { page: 'https://example.com/storage', utm: { source: 'newsletter' } },
      fieldSnapshot: form.fields,
    });
    expect(submission.values).toEqual({
      email,
      phone: '+1 (555) 010-0200',
      cars: 2,
      covered: false,
      from: '2026-12-01',
      extras: ['wash'],
    });
    expect((await api('GET', `/marketing/forms/${form.id}/submissions/${submission.id}`)).body).toEqual({
      data: submission,
    });

    const customer = (await api('GET', `/customers/${submission.customerId}`)).body.data;
    expect(customer).toMatchObject({
      firstName: 'Ada',
      lastName: 'King Lovelace',
      email,
      phone: '+1 (555) 010-0200',
      isActive: true,
    });
  });

  it('links later submissions to the customer with that email, whatever its case', async () => {
    const form = await leadForm();
    const email = `grace.${unique()}@example.com`;
    const existing = await create('/customers', { firstName: 'Grace', lastName: 'Hopper', email });
    const res = await api('POST', `/marketing/forms/${form.id}/submissions`, {
      body: { values: { email: email.toUpperCase(), cars: 1 } },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.customerId).toBe(existing.id);
    const same = await db().where({ team_id: teamId }).whereRaw('lower(email) = ?', [email]).count({ n: '*' });
    expect(Number(same[0]?.n)).toBe(1);
  });

  it('creates one customer when several submissions with a new email arrive at once', async () => {
    const form = await leadForm();
    const email = `burst.${unique()}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        api('POST', `/marketing/forms/${form.id}/submissions`, {
          body: { values: { email, cars: 1 }, respondentName: 'Burst Tester' },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.data.customerId)).size).toBe(1);
    const customers = await db().where({ team_id: teamId, email }).count({ n: '*' });
    expect(Number(customers[0]?.n)).toBe(1);
  });

  it('creates no customer from a one-word or missing name (it would fail POST /customers), but links one by email', async () => {
    const form = await leadForm();
    for (const respondentName of [undefined, 'Cher', '  Prince  ']) {
      const email = `noname.${unique()}@example.com`;
      const res = await api('POST', `/marketing/forms/${form.id}/submissions`, {
        body: { values: { email, cars: 3 }, respondentEmail: email, ...(respondentName ? { respondentName } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data).toMatchObject({ customerId: null, respondentEmail: email });
      expect(await db().where({ team_id: teamId }).whereRaw('lower(email) = ?', [email])).toEqual([]);
    }
    const email = `known.${unique()}@example.com`;
    const known = await create('/customers', { firstName: 'Known', lastName: 'Person', email });
    const linked = await create(`/marketing/forms/${form.id}/submissions`, {
      values: { email, cars: 1 },
      respondentName: 'Cher',
    });
    expect(linked.customerId).toBe(known.id);
  });

  it('creates only customers that pass the contract customer schemas, read back through the API', async () => {
    const form = await leadForm();
    const res = await create(`/marketing/forms/${form.id}/submissions`, {
      values: { email: `two.${unique()}@example.com`, cars: 1 },
      respondentName: 'Mary  Ann  Evans',
    });
    const customer = (await api('GET', `/customers/${res.customerId}`)).body.data;
    expect(V1Customer.safeParse(customer).success).toBe(true);
    const { firstName, lastName, email, phone, isActive } = customer;
    expect({ firstName, lastName }).toEqual({ firstName: 'Mary', lastName: 'Ann Evans' });
    expect(V1CustomerCreate.safeParse({ firstName, lastName, email, phone, isActive }).error).toBeUndefined();
    expect((await api('PATCH', `/customers/${customer.id}`, { body: { firstName, lastName } })).status).toBe(200);
  });

  it('touches customers only when the key also has read:customers and write:customers', async () => {
    const form = await leadForm();
    const existingEmail = `scoped.${unique()}@example.com`;
    await create('/customers', { firstName: 'Scoped', lastName: 'Existing', email: existingEmail });
    const formScopes = ['read:forms', 'write:forms'];
    for (const extra of [[], ['read:customers'], ['write:customers']]) {
      const limited = apiCaller(server.baseUrl, (await server.createKey(teamId, [...formScopes, ...extra])).key);
      for (const email of [existingEmail, `new.${unique()}@example.com`]) {
        const before = await db().where({ team_id: teamId }).count({ n: '*' });
        const res = await limited('POST', `/marketing/forms/${form.id}/submissions`, {
          body: { values: { email, cars: 1 }, respondentName: 'Limited Key', respondentPhone: '+1 555 0100' },
        });
        expect(res.status, `${extra.join(',')} ${JSON.stringify(res.body)}`).toBe(201);
        expect(res.body.data).toMatchObject({
          customerId: null,
          respondentEmail: email,
          respondentName: 'Limited Key',
          respondentPhone: '+1 555 0100',
        });
        expect(await db().where({ team_id: teamId }).count({ n: '*' })).toEqual(before);
      }
    }
    const full = apiCaller(
      server.baseUrl,
      (await server.createKey(teamId, [...formScopes, 'read:customers', 'write:customers'])).key,
    );
    const email = `full.${unique()}@example.com`;
    const res = await full('POST', `/marketing/forms/${form.id}/submissions`, {
      body: { values: { email, cars: 1 }, respondentName: 'Full Key' },
    });
    expect(res.status).toBe(201);
    expect((await api('GET', `/customers/${res.body.data.customerId}`)).body.data).toMatchObject({
      firstName: 'Full',
      lastName: 'Key',
      email,
    });
  });

  it('links no customer when there is no email at all', async () => {
    const form = await create('/marketing/forms', {
      name: 'Anonymous poll',
      fields: [{ key: 'answer', label: 'Answer', type: 'text', required: true }],
    });
    const res = await api('POST', `/marketing/forms/${form.id}/submissions`, { body: { values: { answer: 'yes' } } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ customerId: null, respondentEmail: null, metadata: {} });
  });

  it('reports every problem of the values at values.<key> and stores nothing', async () => {
    const form = await leadForm();
    const before = await snapshotTeamData(server.db, teamId);
    const res = await api('POST', `/marketing/forms/${form.id}/submissions`, {
      body: {
        values: {
          cars: '2',
          covered: 'yes',
          from: '2026-02-30',
          plan: 'weekly',
          extras: ['wash', 'wash'],
          phone: 'call me',
          notes: 12,
          favouriteColour: 'red',
        },
        respondentName: 'Nobody',
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    const byPath = Object.fromEntries(
      (res.body.details as { path: string; message: string }[]).map((d) => [d.path, d.message]),
    );
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'values.cars',
        'values.covered',
        'values.email',
        'values.extras',
        'values.favouriteColour',
        'values.from',
        'values.notes',
        'values.phone',
        'values.plan',
      ].sort(),
    );
    expect(byPath['values.email']).toBe('Email is required');
    expect(byPath['values.favouriteColour']).toBe('The form has no field with this key');
    expect(byPath['values.cars']).toBe('Expected a number');
    expect(byPath['values.plan']).toBe('Expected one of: monthly, seasonal');
    expect(res.body.details).toHaveLength(9);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('counts blanks as no answer, for required fields too', async () => {
    const form = await leadForm();
    const res = await api('POST', `/marketing/forms/${form.id}/submissions`, {
      body: { values: { email: '  ', cars: null, extras: [] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['values.cars', 'values.email']);
  });

  it('keeps the fields of the time in fieldSnapshot when the form changes', async () => {
    const form = await leadForm();
    const first = await create(`/marketing/forms/${form.id}/submissions`, {
      values: { email: `snap.${unique()}@example.com`, cars: 1 },
    });
    const newFields = [{ key: 'email', label: 'Your email', type: 'email', required: true }];
    const updated = await api('PATCH', `/marketing/forms/${form.id}`, { body: { fields: newFields } });
    expect(updated.body.data.fields).toEqual([{ ...newFields[0], options: null }]);
    const again = await api('GET', `/marketing/forms/${form.id}/submissions/${first.id}`);
    expect(again.body.data.fieldSnapshot).toEqual(form.fields);
    // The old required `cars` is gone, and so is its key.
    const second = await api('POST', `/marketing/forms/${form.id}/submissions`, {
      body: { values: { email: `snap2.${unique()}@example.com`, cars: 1 } },
    });
    expect(second.body.details).toEqual([{ path: 'values.cars', message: 'The form has no field with this key' }]);
  });

  it('refuses submissions to a closed form and keeps forms that have submissions', async () => {
    const form = await leadForm();
    await create(`/marketing/forms/${form.id}/submissions`, {
      values: { email: `k.${unique()}@example.com`, cars: 1 },
    });
    expect((await api('DELETE', `/marketing/forms/${form.id}`)).status).toBe(409);
    await api('PATCH', `/marketing/forms/${form.id}`, { body: { isActive: false } });
    const closed = await api('POST', `/marketing/forms/${form.id}/submissions`, {
      body: { values: { email: `k2.${unique()}@example.com`, cars: 1 } },
    });
    expect(closed.status).toBe(409);
    const empty = await leadForm();
    expect((await api('DELETE', `/marketing/forms/${empty.id}`)).body).toEqual({
      data: { id: empty.id, deleted: true },
    });
    expect((await api('GET', `/marketing/forms/${empty.id}`)).status).toBe(404);
  });

  it('finds a submission only under its own form', async () => {
    const form = await leadForm();
    const other = await leadForm();
    const sub = await create(`/marketing/forms/${form.id}/submissions`, {
      values: { email: `o.${unique()}@example.com`, cars: 1 },
    });
    expect((await api('GET', `/marketing/forms/${other.id}/submissions/${sub.id}`)).status).toBe(404);
    const list = await api('GET', `/marketing/forms/${form.id}/submissions`);
    expect(list.body).toMatchObject({ total: 1, page: 1, limit: 50 });
    expect((await api('GET', `/marketing/forms/${other.id}/submissions`)).body.total).toBe(0);
  });

  it('rejects field definitions that cannot be answered', async () => {
    const res = await api('POST', '/marketing/forms', {
      body: {
        name: 'Broken',
        fields: [
          { key: 'plan', label: 'Plan', type: 'select' },
          { key: 'plan', label: 'Again', type: 'text', options: ['a'] },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'fields.0.options',
      'fields.1.key',
      'fields.1.options',
    ]);
  });
});

describe('list rules', () => {
  it('orders by updatedAt desc then id desc, pages, filters by ids and updatedAfter', async () => {
    const team = await server.createTeamWithKey(ALL_SCOPES);
    const own = apiCaller(server.baseUrl, team.key);
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push((await own('POST', '/marketing/asset-folders', { body: { name } })).body.data.id);
    }
    const touched = await own('PATCH', `/marketing/asset-folders/${ids[0]}`, { body: { name: 'a2' } });
    const all = (await own('GET', '/marketing/asset-folders')).body;
    expect(all.total).toBe(3);
    expect(all.data[0].id).toBe(ids[0]);
    const page2 = (await own('GET', '/marketing/asset-folders', { query: { limit: '2', page: '2' } })).body;
    expect(page2).toMatchObject({ page: 2, limit: 2, total: 3 });
    expect(page2.data.map((f: { id: string }) => f.id)).toEqual([all.data[2].id]);
    const some = (await own('GET', '/marketing/asset-folders', { query: { ids: `${ids[1]},${ids[2]}` } })).body;
    expect(some.total).toBe(2);
    const since = (
      await own('GET', '/marketing/asset-folders', { query: { updatedAfter: touched.body.data.updatedAt } })
    ).body;
    expect(since.data.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect((await own('GET', '/marketing/asset-folders', { query: { limit: '201' } })).status).toBe(400);
  });
});

describe('social events', () => {
  async function eventWithStaffData() {
    const customer = await create('/customers', { firstName: 'Rsvp', lastName: 'Guest' });
    const contact = await create('/contacts', { customerId: customer.id, firstName: 'Plus', lastName: 'One' });
    const event = await create('/marketing/social-events', {
      name: 'Cars and coffee',
      startsAt: '2030-06-01T09:00:00+02:00',
      endsAt: '2030-06-01T12:00:00+02:00',
    });
    const base = `/marketing/social-events/${event.id}`;
    const yes = await create(`${base}/rsvp-options`, { label: 'Attending' });
    const no = await create(`${base}/rsvp-options`, { label: 'Can’t make it', attending: false, sortOrder: 1 });
    const invite = await create(`${base}/invites`, { customerId: customer.id });
    const contactInvite = await create(`${base}/invites`, { contactId: contact.id });
    const rsvp = await create(`${base}/rsvps`, { rsvpOptionId: yes.id, inviteId: invite.id, guestCount: 2 });
    return { customer, contact, event, base, yes, no, invite, contactInvite, rsvp };
  }

  const rowsOf = async (eventId: string) => ({
    options: await server.db('social_event_rsvp_options').where({ event_id: eventId }).orderBy('id'),
    invites: await server.db('social_event_invites').where({ event_id: eventId }).orderBy('id'),
    rsvps: await server.db('social_event_rsvps').where({ event_id: eventId }).orderBy('id'),
    events: await server.db('social_events').where({ id: eventId }),
  });

  it('invites customers and contacts once each and links RSVPs to invites and options', async () => {
    const { customer, contact, base, yes, no, invite, contactInvite, rsvp } = await eventWithStaffData();
    expect(contactInvite).toMatchObject({ customerId: customer.id, contactId: contact.id });
    expect(rsvp).toMatchObject({
      inviteId: invite.id,
      customerId: customer.id,
      contactId: null,
      rsvpOptionId: yes.id,
      guestCount: 2,
    });
    expect((await api('POST', `${base}/invites`, { body: { customerId: customer.id } })).status).toBe(409);
    expect((await api('POST', `${base}/invites`, { body: { contactId: contact.id } })).status).toBe(409);
    const second = await api('POST', `${base}/rsvps`, { body: { rsvpOptionId: no.id, inviteId: invite.id } });
    expect(second.status).toBe(409);

    const changed = await api('PATCH', `${base}/rsvps/${rsvp.id}`, { body: { rsvpOptionId: no.id } });
    expect(changed.body.data.rsvpOptionId).toBe(no.id);
    expect(Date.parse(changed.body.data.respondedAt)).toBeGreaterThan(Date.parse(rsvp.respondedAt));
    expect((await api('GET', `${base}/rsvps`, { query: { rsvpOptionId: no.id } })).body.total).toBe(1);

    // Staff data that others point at is kept.
    expect((await api('DELETE', `${base}/rsvp-options/${no.id}`)).status).toBe(409);
    expect((await api('DELETE', `${base}/invites/${invite.id}`)).status).toBe(409);
    expect((await api('DELETE', `${base}/rsvp-options/${yes.id}`)).body).toEqual({
      data: { id: yes.id, deleted: true },
    });
    expect((await api('DELETE', `${base}/invites/${contactInvite.id}`)).status).toBe(200);

    const other = await create('/marketing/social-events', { name: 'Other', startsAt: '2030-07-01T09:00:00Z' });
    const foreign = await api('POST', `/marketing/social-events/${other.id}/rsvps`, {
      body: { rsvpOptionId: no.id, name: 'Walk-in' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details).toEqual([{ path: 'rsvpOptionId', message: 'Not an RSVP option of this event' }]);
    expect((await api('GET', `/marketing/social-events/${other.id}/rsvps/${rsvp.id}`)).status).toBe(404);
  });

  it('DELETE removes the event with its RSVPs, invites and options, and nothing else', async () => {
    const { event, customer, contact } = await eventWithStaffData();
    const kept = await eventWithStaffData();
    const res = await api('DELETE', `/marketing/social-events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: event.id, deleted: true } });
    expect(await rowsOf(event.id)).toEqual({ options: [], invites: [], rsvps: [], events: [] });
    expect((await api('GET', `/marketing/social-events/${event.id}`)).status).toBe(404);
    expect((await api('GET', `/customers/${customer.id}`)).status).toBe(200);
    expect((await api('GET', `/contacts/${contact.id}`)).status).toBe(200);
    const other = await rowsOf(kept.event.id);
    expect([other.options.length, other.invites.length, other.rsvps.length, other.events.length]).toEqual([2, 2, 1, 1]);
    expect((await api('DELETE', `/marketing/social-events/${event.id}`)).status).toBe(404);
  });

  it('DELETE is one transaction: a failure after the RSVPs and invites are gone leaves everything', async () => {
    const { event } = await eventWithStaffData();
    const before = await rowsOf(event.id);
    const snapshot = await snapshotTeamData(server.db, teamId);
    // Deleting the options (the third step) fails, for this team only: other suites share the database.
    const name = `fail_option_delete_${unique()}`;
    await server.db.raw(
      `create function ${name}() returns trigger language plpgsql as $$
       begin if old.team_id = '${teamId}' then raise exception 'injected failure'; end if; return old; end $$`,
    );
    await server.db.raw(
      `create trigger ${name} before delete on social_event_rsvp_options for each row execute function ${name}()`,
    );
    try {
      const res = await api('DELETE', `/marketing/social-events/${event.id}`);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'Internal server error', code: 'internal_error', details: null });
    } finally {
      await server.db.raw(`drop trigger ${name} on social_event_rsvp_options`);
      await server.db.raw(`drop function ${name}()`);
    }
    expect(await rowsOf(event.id)).toEqual(before);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(snapshot);
    expect((await api('DELETE', `/marketing/social-events/${event.id}`)).status).toBe(200);
  });

  it('lists events in a time window', async () => {
    const team = await server.createTeamWithKey(ALL_SCOPES);
    const own = apiCaller(server.baseUrl, team.key);
    const early = (
      await own('POST', '/marketing/social-events', { body: { name: 'A', startsAt: '2030-01-01T10:00:00Z' } })
    ).body.data;
    await own('POST', '/marketing/social-events', { body: { name: 'B', startsAt: '2030-03-01T10:00:00Z' } });
    const res = await own('GET', '/marketing/social-events', {
      query: { from: '2029-12-31T00:00:00Z', to: '2030-02-01T00:00:00Z' },
    });
    expect(res.body.data.map((e: { id: string }) => e.id)).toEqual([early.id]);
    const bad = await own('PATCH', `/marketing/social-events/${early.id}`, {
      body: { endsAt: '2029-01-01T00:00:00Z' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('social accounts and posts', () => {
  const newAccount = () => create('/marketing/social-accounts', { network: 'instagram', handle: `vsf_${unique()}` });

  it('a post’s copy of its account’s network follows the account, with the post’s updatedAt', async () => {
    const account = await newAccount();
    const post = await create('/marketing/social-posts', { socialAccountId: account.id, body: 'Relabelled' });
    await api('PATCH', `/marketing/social-accounts/${account.id}`, { body: { network: 'facebook' } });
    const after = (await api('GET', `/marketing/social-posts/${post.id}`)).body.data;
    expect(after.network).toBe('facebook');
    expect(after.updatedAt > post.updatedAt).toBe(true);
  });

  it('accepts https and the team’s own media as attachments, nothing else', async () => {
    const account = await newAccount();
    const asset = await create('/marketing/assets', { filename: 'a.png', contentType: 'image/png', base64: TINY_PNG });
    const ok = await create('/marketing/social-posts', {
      socialAccountId: account.id,
      body: 'New season',
      mediaUrls: ['https://cdn.example.com/a.jpg', asset.url],
    });
    expect(ok).toMatchObject({
      status: 'draft',
      network: 'instagram',
      mediaUrls: ['https://cdn.example.com/a.jpg', asset.url],
    });

    const otherTeam = await server.createTeamWithKey(ALL_SCOPES);
    const theirs = (
      await apiCaller(server.baseUrl, otherTeam.key)('POST', '/marketing/assets', {
        body: { filename: 'b.png', contentType: 'image/png', base64: TINY_PNG },
      })
    ).body.data;
    const refused = await api('POST', '/marketing/social-posts', {
      body: { socialAccountId: account.id, body: 'x', mediaUrls: [asset.url, theirs.url] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'mediaUrls.1', message: expect.stringMatching(/^\/api\/media\/.+ is not a media file of this team$/) },
    ]);
    const insecure = await api('POST', '/marketing/social-posts', {
      body: { socialAccountId: account.id, body: 'x', mediaUrls: ['http://example.com/a.jpg', '/api/media/nope'] },
    });
    expect(insecure.status).toBe(400);
    expect(insecure.body.details.map((d: { path: string }) => d.path)).toEqual(['mediaUrls.0', 'mediaUrls.1']);
  });

  it('refuses odd URL spellings as mediaUrls, profileUrl and sourceUrl, storing nothing', async () => {
    const account = await newAccount();
    const post = await create('/marketing/social-posts', { socialAccountId: account.id, body: 'Draft' });
    const before = await snapshotTeamData(server.db, teamId);
    for (const bad of ODD_URLS) {
      const attempts = [
        [
          'POST',
          '/marketing/social-posts',
          { socialAccountId: account.id, body: 'x', mediaUrls: [bad] },
          'mediaUrls.0',
        ],
        [
          'PATCH',
          `/marketing/social-posts/${post.id}`,
          { mediaUrls: ['https://cdn.example.com/a.jpg', bad] },
          'mediaUrls.1',
        ],
        [
          'POST',
          '/marketing/social-accounts',
          { network: 'x', handle: `u_${unique()}`, profileUrl: bad },
          'profileUrl',
        ],
        ['PATCH', `/marketing/social-accounts/${account.id}`, { profileUrl: bad }, 'profileUrl'],
        ['POST', '/marketing/assets', { filename: 'a.png', contentType: 'image/png', sourceUrl: bad }, 'sourceUrl'],
      ] as const;
      for (const [method, path, body, field] of attempts) {
        const res = await api(method, path, { body });
        expect(res.status, `${method} ${path} ${JSON.stringify(bad)}`).toBe(400);
        expect(res.body).toMatchObject({ code: 'validation_error', details: [{ path: field }] });
      }
    }
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);

    const kept = await create('/marketing/social-posts', {
      socialAccountId: account.id,
      body: 'Spelled out',
      mediaUrls: ['HTTPS://cdn.example.com/a.jpg', 'https://bücher.example:8443/b.jpg?w=1'],
    });
    expect(kept.mediaUrls).toEqual(['HTTPS://cdn.example.com/a.jpg', 'https://bücher.example:8443/b.jpg?w=1']);
  });

  it('publishes through the outbox, records the outcome, and refuses to edit or republish', async () => {
    const account = await newAccount();
    const post = await create('/marketing/social-posts', {
      socialAccountId: account.id,
      body: 'Open house Saturday',
      scheduledAt: '2030-03-01T10:00:00+01:00',
    });
    expect(post).toMatchObject({ status: 'scheduled', scheduledAt: '2030-03-01T09:00:00.000Z', provider: null });
    const res = await api('POST', `/marketing/social-posts/${post.id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'published', provider: 'outbox', error: null });
    expect(res.body.data.publishedAt).toEqual(expect.any(String));
    const outbox = await server.db('social_outbox').where({ id: res.body.data.providerPostId });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ team_id: teamId, social_post_id: post.id, body: 'Open house Saturday' });
    expect(outbox[0].handle).toBe(account.handle);

    expect((await api('POST', `/marketing/social-posts/${post.id}/publish`)).status).toBe(409);
    expect((await api('PATCH', `/marketing/social-posts/${post.id}`, { body: { body: 'edit' } })).status).toBe(409);
    expect((await api('DELETE', `/marketing/social-accounts/${account.id}`)).status).toBe(409);
    expect((await api('GET', '/marketing/social-posts', { query: { status: 'published' } })).body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: post.id })]),
    );
  });

  it('a provider failure keeps the post as failed with the error, and a retry can publish it', async () => {
    const account = await newAccount();
    const post = await create('/marketing/social-posts', { socialAccountId: account.id, body: 'Flaky network' });
    const failing: SocialProvider = {
      name: 'test-network',
      publish: async () => {
        throw new Error('Network said 503: try later');
      },
    };
    const app = createApp({ db: server.db, socialProvider: failing });
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    try {
      const port = (listener.address() as AddressInfo).port;
      const viaFailing = apiCaller(`http://127.0.0.1:${port}/api/v1`, key);
      const res = await viaFailing('POST', `/marketing/social-posts/${post.id}/publish`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: post.id,
        status: 'failed',
        provider: 'test-network',
        providerPostId: null,
        publishedAt: null,
        error: 'Network said 503: try later',
        body: 'Flaky network',
      });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
    expect((await api('GET', `/marketing/social-posts/${post.id}`)).body.data.status).toBe('failed');
    const retried = await api('POST', `/marketing/social-posts/${post.id}/publish`);
    expect(retried.body.data).toMatchObject({ status: 'published', provider: 'outbox', error: null });
  });

  it('keeps one account per network and handle', async () => {
    const account = await newAccount();
    const again = await api('POST', '/marketing/social-accounts', {
      body: { network: 'instagram', handle: account.handle },
    });
    expect(again.status).toBe(409);
    const elsewhere = await api('POST', '/marketing/social-accounts', {
      body: { network: 'x', handle: account.handle },
    });
    expect(elsewhere.status).toBe(201);
    const inactive = await api('PATCH', `/marketing/social-accounts/${elsewhere.body.data.id}`, {
      body: { isActive: false },
    });
    expect(inactive.body.data.isActive).toBe(false);
    const post = await api('POST', '/marketing/social-posts', {
      body: { socialAccountId: elsewhere.body.data.id, body: 'x' },
    });
    expect(post.status).toBe(400);
  });
});

describe('marketing assets and folders', () => {
  const media = (id: string, withKey = key) =>
    fetch(`${server.origin}/api/media/${id}`, { headers: { authorization: `Bearer ${withKey}` } });

  it('serves uploaded bytes at /api/media/<id> for read:marketing-assets, and never in a car’s gallery', async () => {
    const asset = await create('/marketing/assets', {
      name: 'Spring banner',
      filename: 'banner.png',
      contentType: 'image/png',
      base64: TINY_PNG,
    });
    const bytes = Buffer.from(TINY_PNG, 'base64');
    expect(asset).toMatchObject({
      name: 'Spring banner',
      filename: 'banner.png',
      contentType: 'image/png',
      sizeBytes: bytes.length,
      url: `/api/media/${asset.id}`,
      folderId: null,
    });
    const served = await media(asset.id);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    const carsOnly = await server.createKey(teamId, ['read:cars']);
    const denied = await media(asset.id, carsOnly.key);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({ error: 'Missing scope: read:marketing-assets' });

    // A car with a photo: its gallery holds the photo and none of the team's assets.
    const car = await create('/cars', { year: 1965, make: 'Jaguar', model: 'E-Type' });
    const event = await create(`/cars/${car.id}/events`, { activityType: 'inspection' });
    const photo = await create(`/cars/${car.id}/photos`, {
      sessionId: event.sessionId,
      filename: 'front.png',
      contentType: 'image/png',
      base64: TINY_PNG,
    });
    const gallery = (await api('GET', `/cars/${car.id}/photos`, { query: { limit: '200' } })).body;
    expect(gallery.data.map((p: { id: string }) => p.id)).toEqual([photo.id]);
    const row = await server.db('media').where({ id: asset.id }).first();
    expect(row).toMatchObject({ kind: 'asset', car_id: null, session_id: null });
    const assets = (await api('GET', '/marketing/assets', { query: { ids: `${asset.id},${photo.id}` } })).body;
    expect(assets.data.map((a: { id: string }) => a.id)).toEqual([asset.id]);
  });

  it('applies the photo byte rules: magic bytes, 3 MiB, one source', async () => {
    const before = await snapshotTeamData(server.db, teamId);
    const wrongType = await api('POST', '/marketing/assets', {
      body: { filename: 'a.jpg', contentType: 'image/jpeg', base64: TINY_PNG },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details).toEqual([
      { path: 'contentType', message: 'Declared image/jpeg but the bytes are image/png' },
    ]);
    const notImage = await api('POST', '/marketing/assets', {
      body: { filename: 'a.png', contentType: 'image/png', base64: Buffer.from('hello').toString('base64') },
    });
    expect(notImage.status).toBe(400);
    const huge = await api('POST', '/marketing/assets', {
      body: { filename: 'a.png', contentType: 'image/png', base64: 'A'.repeat(4 * 1024 * 1024 + 4) },
    });
    expect(huge.status).toBe(413);
    const both = await api('POST', '/marketing/assets', {
      body: { filename: 'a.png', contentType: 'image/png', base64: TINY_PNG, sourceUrl: 'https://example.com/a.png' },
    });
    expect(both.status).toBe(400);
    expect(await snapshotTeamData(server.db, teamId)).toEqual(before);
  });

  it('renames and moves assets between folders and deletes them with their bytes', async () => {
    const folder = await create('/marketing/asset-folders', { name: 'Events' });
    const asset = await create('/marketing/assets', { filename: 'x.png', contentType: 'image/png', base64: TINY_PNG });
    const moved = await api('PATCH', `/marketing/assets/${asset.id}`, {
      body: { folderId: folder.id, name: 'Cars and coffee' },
    });
    expect(moved.body.data).toMatchObject({ folderId: folder.id, name: 'Cars and coffee', filename: 'x.png' });
    const inFolder = (await api('GET', '/marketing/assets', { query: { folderId: folder.id } })).body;
    expect(inFolder.data.map((a: { id: string }) => a.id)).toEqual([asset.id]);
    const atTop = (await api('GET', '/marketing/assets', { query: { folderId: 'root', limit: '200' } })).body;
    expect(atTop.data.map((a: { id: string }) => a.id)).not.toContain(asset.id);
    expect(atTop.data.every((a: { folderId: string | null }) => a.folderId === null)).toBe(true);
    const missing = await api('PATCH', `/marketing/assets/${asset.id}`, {
      body: { folderId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(missing.body.details).toEqual([{ path: 'folderId', message: 'Asset folder not found' }]);

    expect((await api('DELETE', `/marketing/assets/${asset.id}`)).body).toEqual({
      data: { id: asset.id, deleted: true },
    });
    expect((await media(asset.id)).status).toBe(404);
    expect(await server.db('media').where({ id: asset.id })).toEqual([]);
  });

  it('refuses folder cycles and deletes only empty folders', async () => {
    const a = await create('/marketing/asset-folders', { name: 'A' });
    const b = await create('/marketing/asset-folders', { name: 'B', parentId: a.id });
    const c = await create('/marketing/asset-folders', { name: 'C', parentId: b.id });
    for (const parentId of [a.id, c.id, b.id]) {
      const res = await api('PATCH', `/marketing/asset-folders/${a.id}`, { body: { parentId } });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([
        { path: 'parentId', message: 'A folder cannot move into itself or one of its own subfolders' },
      ]);
    }
    // Moving a subtree elsewhere is fine: C to the top, then A under C.
    expect((await api('PATCH', `/marketing/asset-folders/${c.id}`, { body: { parentId: null } })).status).toBe(200);
    expect((await api('PATCH', `/marketing/asset-folders/${a.id}`, { body: { parentId: c.id } })).status).toBe(200);
    expect((await api('GET', '/marketing/asset-folders', { query: { parentId: c.id } })).body.data).toEqual([
      expect.objectContaining({ id: a.id }),
    ]);

    const top = (await api('GET', '/marketing/asset-folders', { query: { parentId: 'root', limit: '200' } })).body;
    expect(top.data.map((f: { id: string }) => f.id)).toContain(c.id);
    expect(top.data.map((f: { id: string }) => f.id)).not.toContain(a.id);
    const withSub = await api('DELETE', `/marketing/asset-folders/${a.id}`);
    expect(withSub.status).toBe(409);
    const asset = await create('/marketing/assets', {
      filename: 'y.png',
      contentType: 'image/png',
      base64: TINY_PNG,
      folderId: b.id,
    });
    expect((await api('DELETE', `/marketing/asset-folders/${b.id}`)).status).toBe(409);
    await api('DELETE', `/marketing/assets/${asset.id}`);
    expect((await api('DELETE', `/marketing/asset-folders/${b.id}`)).body).toEqual({
      data: { id: b.id, deleted: true },
    });
    expect((await api('DELETE', `/marketing/asset-folders/${a.id}`)).status).toBe(200);
  });
});
