import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdminGrant, AdminKey, AdminMember, AdminTeam } from '@vsf/contract';
import { AuthenticationError, PermissionDeniedError, type V1Car, VsfClient } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  type BrowserSession,
  openBrowser,
  SKIP_BROWSER,
  warnIfSkipped,
} from '../../packages/server/test/browser/chromium.js';
import { connectAssistant } from '../../packages/server/test/support/assistant-client.js';

// The admin page driven in a real Chromium, end to end with the SDK: what an admin does in the page is
// checked by what an integration using the key then gets from the API.

warnIfSkipped('admin page');

// Outside CI a machine without Chromium skips; in CI the run fails instead, since .ci/run installs it.
describe.skipIf(SKIP_BROWSER)('/admin in Chromium', () => {
  let server: TestServer;
  let browser: BrowserSession;
  let page: Page;
  let team: AdminTeam;
  let otherTeam: AdminTeam;
  let car: V1Car;
  /** The full key as the page showed it once. */
  let createdKey = '';
  let sdk: VsfClient;
  const dialogs: string[] = [];
  let shot = 0;

  const screenshot = async (name: string) => {
    shot += 1;
    await page.screenshot({ path: join(ARTIFACTS, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage: true });
  };

  /** Answers the next confirm() the page opens, and records its text. */
  const answerNextDialog = (accept: boolean) =>
    page.once('dialog', (dialog: Dialog) => {
      dialogs.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });

  const adminKeys = async (teamId: string) => {
    const res = await server.admin('GET', `/teams/${teamId}/keys`);
    return ((await res.json()) as { data: AdminKey[] }).data;
  };

  /** A paginated admin list's records (one page holds every record these tests make). */
  const adminList = async <T>(path: string) => {
    const res = await server.admin('GET', path);
    return ((await res.json()) as { data: T[] }).data;
  };

  /** What an assistant holding `accessToken` gets from the connector now. */
  const mcpStatus = async (accessToken: string | undefined) =>
    (
      await fetch(`${server.origin}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    ).status;

  const sdkError = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected the SDK call to fail');
      },
      (error: unknown) => error,
    );

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    server = await startTestServer();
    team = await server.createTeam(`Browser Team ${Date.now()}`);
    otherTeam = await server.createTeam(`Other Team ${Date.now()}`);
    // A car the new key should see, written with a separate key of the same team.
    const writer = await server.createKey(team.id, ['read:cars', 'write:cars'], { name: 'setup writer' });
    car = await new VsfClient({ apiKey: writer.key, baseUrl: server.baseUrl, maxRetries: 0 }).cars.create({
      year: 1967,
      make: 'Ford',
      model: 'Mustang',
    });

    browser = await openBrowser(server.origin);
    page = browser.page;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('refuses a wrong admin token and signs in with the right one', async () => {
    const response = await page.goto(`${server.origin}/admin`);
    await expect.poll(() => page.title()).toContain('Integration settings');
    // Strict enough that an inline script could not run; no upgrade-insecure-requests, which would
    // fetch the page's own script over HTTPS on a server reached over plain HTTP by a LAN address.
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("script-src-attr 'none'");
    expect(policy).not.toContain('upgrade-insecure-requests');
    await screenshot('sign-in');

    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid admin token' }).waitFor();
    expect(browser.problems.splice(0)).toEqual([`401 ${server.adminBaseUrl}/teams`]);
    await screenshot('wrong-token');

    await page.getByLabel('Admin token').fill(server.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#teams-body tr', { hasText: team.name }).waitFor();
    await expect.poll(() => page.locator('#teams-body tr', { hasText: otherTeam.name }).count()).toBe(1);
    expect(page.url()).not.toContain(server.adminToken);
    await screenshot('teams');
  });

  it('creates a key with the ticked scopes and expiry, and shows the full key once with a copy button', async () => {
    await page.getByRole('button', { name: `Manage ${team.name}`, exact: true }).click();
    await page.getByRole('heading', { name: team.name }).waitFor();
    // The existing key is listed by its prefix only.
    await page.locator('#keys-body tr', { hasText: 'setup writer' }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Website feed');
    const keyForm = page.locator('#create-key-form');
    await keyForm.locator('input[value="read:cars"]').check();
    await keyForm.locator('input[value="write:customers"]').check();
    // Ticking write ticked read of the same resource, in this form only.
    expect(await keyForm.locator('input[value="read:customers"]').isChecked()).toBe(true);
    expect(await page.locator('#create-member-form input[value="read:customers"]').isChecked()).toBe(false);
    const expiryYear = new Date().getFullYear() + 3;
    await page.getByLabel('Expires', { exact: true }).fill(`${expiryYear}-06-15T12:00`);
    await screenshot('create-form');
    await page.getByRole('button', { name: 'Create key' }).click();

    const shown = page.locator('#new-key-value');
    await shown.waitFor();
    await expect.poll(() => shown.inputValue()).toMatch(/^vsf_[0-9a-z]{12}\.[A-Za-z0-9_-]{43,}$/);
    createdKey = await shown.inputValue();
    await screenshot('key-shown-once');

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(createdKey);

    const stored = (await adminKeys(team.id)).find((k) => k.name === 'Website feed');
    expect(stored?.scopes).toEqual(['read:cars', 'read:customers', 'write:customers']);
    expect(stored && new Date(stored.expiresAt ?? 0).getFullYear()).toBe(expiryYear);
    expect(createdKey.startsWith(`vsf_${stored?.prefix}.`)).toBe(true);
  });

  it('the key works with the SDK, within its scopes', async () => {
    sdk = new VsfClient({ apiKey: createdKey, baseUrl: server.baseUrl, maxRetries: 0 });
    const page1 = await sdk.cars.list();
    expect(page1.data.map((c) => c.id)).toEqual([car.id]);
    const refused = await sdkError(sdk.cars.create({ year: 2001, make: 'Honda', model: 'Civic' }));
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect((refused as PermissionDeniedError).message).toBe('Missing scope: write:cars');
  });

  it('forgets the full key once dismissed; after a reload the list shows keys without secrets', async () => {
    await page.getByRole('button', { name: 'I have stored the key' }).click();
    await expect.poll(() => page.locator('#new-key-section').isHidden()).toBe(true);
    const secret = createdKey.split('.')[1] as string;
    expect(await page.content()).not.toContain(secret);

    await page.reload();
    const row = page.locator('#keys-body tr', { hasText: 'Website feed' });
    await row.waitFor();
    const prefix = createdKey.slice(0, createdKey.indexOf('.'));
    expect(await row.textContent()).toContain(`${prefix}.…`);
    expect(await page.content()).not.toContain(secret);
    // Evaluated in the page (as source text: this file is typed for Node, without DOM globals).
    const storage = (await page.evaluate(
      '({ local: localStorage.length, session: Object.values(sessionStorage).join("\\n"), url: location.href })',
    )) as { local: number; session: string; url: string };
    expect(storage.local).toBe(0);
    expect(storage.session).not.toContain(secret);
    expect(storage.url).toBe(`${server.origin}/admin`);
    await screenshot('reloaded-list');
  });

  it('renames a key and changes its expiry', async () => {
    await page.getByRole('button', { name: 'Edit Website feed' }).click();
    await page.getByLabel('Key name').fill('Website inventory feed');
    const newYear = new Date().getFullYear() + 4;
    await page.getByLabel('Key expiry').fill(`${newYear}-01-20T09:30`);
    await screenshot('edit-key');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved key "Website inventory feed"' }).waitFor();

    const stored = (await adminKeys(team.id)).find((k) => createdKey.startsWith(`vsf_${k.prefix}.`));
    expect(stored?.name).toBe('Website inventory feed');
    expect(new Date(stored?.expiresAt ?? 0).getFullYear()).toBe(newYear);
    await screenshot('edited-key');
  });

  it("turning the team's API off answers the SDK with 403, and on again restores it", async () => {
    answerNextDialog(true);
    await page.getByRole('button', { name: 'Turn API off' }).click();
    await page.getByRole('button', { name: 'Turn API on' }).waitFor();
    expect(dialogs.at(-1)).toContain(`Turn the API off for "${team.name}"`);
    await screenshot('api-off');

    const disabled = await sdkError(sdk.cars.list());
    expect(disabled).toBeInstanceOf(PermissionDeniedError);
    expect((disabled as PermissionDeniedError).status).toBe(403);
    expect((disabled as PermissionDeniedError).message).toBe('API is disabled for this team');

    await page.getByRole('button', { name: 'Turn API on' }).click();
    await page.getByRole('button', { name: 'Turn API off' }).waitFor();
    expect((await sdk.cars.list()).data).toHaveLength(1);
  });

  it('revokes only after confirmation; the SDK then gets 401 "API key revoked"', async () => {
    const revoke = page.getByRole('button', { name: 'Revoke Website inventory feed' });
    answerNextDialog(false);
    await revoke.click();
    expect(dialogs.at(-1)).toContain('Revoke "Website inventory feed"');
    expect((await sdk.cars.list()).data).toHaveLength(1);

    answerNextDialog(true);
    await revoke.click();
    const row = page.locator('#keys-body tr', { hasText: 'Website inventory feed' });
    await row.filter({ hasText: 'Revoked' }).waitFor();
    await screenshot('revoked');

    const revoked = await sdkError(sdk.cars.list());
    expect(revoked).toBeInstanceOf(AuthenticationError);
    expect((revoked as AuthenticationError).status).toBe(401);
    expect((revoked as AuthenticationError).message).toBe('API key revoked');
  });

  const member = { email: `sam-${Date.now()}@example.com`, password: 'correct horse battery staple' };
  /** The access token of the assistant the member signed in with the first password. */
  let firstAccessToken: string | undefined;
  let secondAccessToken: string | undefined;

  it('adds a member with the ticked scopes; an assistant they sign in is listed under grants', async () => {
    await page.getByRole('heading', { name: 'Members (assistant sign-in)' }).waitFor();
    await page.getByText('This team has no members yet').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    const memberForm = page.locator('#create-member-form');
    await memberForm.locator('input[value="write:cars"]').check();
    expect(await memberForm.locator('input[value="read:cars"]').isChecked()).toBe(true);
    await screenshot('add-member');
    await page.getByRole('button', { name: 'Add member' }).click();
    await page.locator('#members-body tr', { hasText: member.email }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `Added member ${member.email}` })
      .waitFor();
    // The password is gone from the form and never shown.
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
    expect(await page.content()).not.toContain(member.password);

    const [stored] = await adminList<AdminMember>(`/teams/${team.id}/members`);
    expect(stored).toMatchObject({ email: member.email, scopes: ['read:cars', 'write:cars'] });
    expect(await adminList(`/teams/${otherTeam.id}/members`)).toEqual([]);

    // The member signs an assistant in (OAuth, the official MCP client) with that password.
    const { client, provider } = await connectAssistant(server.origin, member);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_car');
    await client.close();
    firstAccessToken = provider.saved?.access_token;

    await page.getByText('No assistant has been signed in for this team yet.').waitFor();
    await page.getByRole('button', { name: 'Refresh grants' }).click();
    const grant = page.locator('#grants-body tr', { hasText: member.email });
    await grant.waitFor();
    expect(await grant.textContent()).toContain('Test Assistant');
    expect(await grant.textContent()).toContain('Active');
    await screenshot('member-and-grant');
  });

  it("revokes a grant only after confirmation; the assistant's next request is refused", async () => {
    const revoke = page.getByRole('button', { name: `Revoke Test Assistant of ${member.email}` });
    answerNextDialog(false);
    await revoke.click();
    expect(dialogs.at(-1)).toContain(`Revoke what ${member.email} allowed "Test Assistant"`);
    expect(await mcpStatus(firstAccessToken)).not.toBe(401);

    answerNextDialog(true);
    await revoke.click();
    await page.locator('#grants-body tr', { hasText: member.email }).filter({ hasText: 'Revoked' }).waitFor();
    expect(await mcpStatus(firstAccessToken)).toBe(401);
    const [grant] = await adminList<AdminGrant>(`/teams/${team.id}/grants`);
    expect(grant?.revokedAt).not.toBeNull();
    await screenshot('grant-revoked');
  });

  it("narrows a member's scopes and sets a new password: the old one no longer signs in", async () => {
    await page.getByRole('button', { name: `Edit member ${member.email}` }).click();
    const form = page.getByRole('form', { name: `Edit member ${member.email}` });
    expect(await form.locator('input[value="write:cars"]').isChecked()).toBe(true);
    await form.locator('input[value="write:cars"]').uncheck();
    await form.getByLabel('New password').fill('a brand new password');
    await screenshot('edit-member');
    answerNextDialog(true);
    await form.getByRole('button', { name: 'Save member' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Saved member ${member.email}` })
      .waitFor();
    expect(dialogs.at(-1)).toContain(`Set a new password for ${member.email}?`);

    const [stored] = await adminList<AdminMember>(`/teams/${team.id}/members`);
    expect(stored?.scopes).toEqual(['read:cars']);
    await expect(connectAssistant(server.origin, member)).rejects.toThrow();
    const { client, provider } = await connectAssistant(server.origin, {
      email: member.email,
      password: 'a brand new password',
    });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('list_cars');
    expect(tools).not.toContain('create_car');
    await client.close();
    secondAccessToken = provider.saved?.access_token;
  });

  it('deletes a member only after confirmation; their assistant is refused from then on', async () => {
    const remove = page.getByRole('button', { name: `Delete member ${member.email}` });
    answerNextDialog(false);
    await remove.click();
    expect(dialogs.at(-1)).toContain(`Delete member ${member.email}?`);
    expect(await adminList(`/teams/${team.id}/members`)).toHaveLength(1);

    answerNextDialog(true);
    await remove.click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deleted member ${member.email}` })
      .waitFor();
    await expect.poll(() => page.locator('#members-body tr', { hasText: member.email }).count()).toBe(0);
    await page.getByText('This team has no members yet').waitFor();
    expect(await adminList(`/teams/${team.id}/members`)).toEqual([]);
    expect(await mcpStatus(secondAccessToken)).toBe(401);
    await screenshot('member-deleted');
  });

  it('ran without script errors, CSP violations or failed requests', () => {
    expect(browser.problems).toEqual([]);
  });
});
