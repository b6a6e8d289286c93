import { ASSISTANT_SCOPES, SCOPE_RESOURCES, type ScopeResource } from '@vsf/contract';
import { ADMIN_PAGE_SCRIPT_PATH, ADMIN_PAGE_STYLE_PATH } from './admin-page-assets.js';
import { SCOPE_GRANTS } from './scope-grants.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/**
 * One fieldset per resource, read and write side by side, so a key's (or a member's) reach is chosen
 * resource by resource. The checkboxes have no ids: the key and the member forms each hold a set.
 */
function renderScopeGroups(resources: readonly ScopeResource[] = SCOPE_RESOURCES): string {
  return resources
    .map((resource) => {
      const checkbox = (access: 'read' | 'write') => {
        const scope = escapeHtml(`${access}:${resource}`);
        return `<label class="scope"><input type="checkbox" name="scope" value="${scope}"> <code>${scope}</code></label>`;
      };
      return `<fieldset class="scope-group" data-resource="${escapeHtml(resource)}">
          <legend>${escapeHtml(resource)}</legend>
          <p class="hint">${escapeHtml(SCOPE_GRANTS[resource])}</p>
          ${checkbox('read')}
          ${checkbox('write')}
        </fieldset>`;
    })
    .join('\n        ');
}

/** What a member may grant an assistant: every resource but webhooks (an endpoint acts with an API key). */
const ASSISTANT_RESOURCES = SCOPE_RESOURCES.filter((r) => ASSISTANT_SCOPES.includes(`read:${r}`));

/**
 * The static shell of `/admin`. Everything that depends on the admin token (teams, keys, members, grants) is fetched by the
 * page's script after sign-in, so this HTML holds no data and no secret and is the same for every visitor.
 */
export function renderAdminShell(options: { adminEnabled: boolean }): string {
  const disabledNotice = options.adminEnabled
    ? ''
    : `<p class="notice" id="admin-disabled">The admin API is off on this server. Set <code>VSF_ADMIN_TOKEN</code> and restart the server to manage teams, keys and members here.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Integration settings · Vehicle Storage Facility API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${ADMIN_PAGE_STYLE_PATH}">
  <script type="module" src="${ADMIN_PAGE_SCRIPT_PATH}"></script>
</head>
<body>
  <header class="page-header">
    <div>
      <h1>Integration settings</h1>
      <p class="hint">Turn a team's API on or off, manage the API keys its integrations use and the members who sign AI assistants in.</p>
    </div>
    <button id="sign-out" type="button" hidden>Sign out</button>
  </header>
  <main>
    <noscript><p class="notice">This page needs JavaScript to talk to the admin API.</p></noscript>
    <p id="error" class="error" role="alert" hidden></p>
    <p id="status" class="status" role="status" aria-live="polite"></p>

    <section id="sign-in-section" aria-labelledby="sign-in-heading">
      <h2 id="sign-in-heading">Sign in</h2>
      ${disabledNotice}
      <form id="sign-in-form">
        <label for="admin-token">Admin token</label>
        <input id="admin-token" name="token" type="password" autocomplete="off" required${options.adminEnabled ? '' : ' disabled'}>
        <button type="submit"${options.adminEnabled ? '' : ' disabled'}>Sign in</button>
        <p class="hint">The server's <code>VSF_ADMIN_TOKEN</code>. It stays in this tab's session storage and is forgotten when you sign out or close the tab.</p>
      </form>
    </section>

    <section id="new-key-section" class="new-key" aria-labelledby="new-key-heading" hidden>
      <h2 id="new-key-heading">Your new API key</h2>
      <p id="new-key-label"></p>
      <p><strong>This is the only time the full key is shown.</strong> Copy it into your integration's secret store now: the server keeps only a hash and cannot show it again. If it is lost, create a new key and revoke this one.</p>
      <div class="secret-row">
        <input id="new-key-value" type="text" readonly spellcheck="false" aria-label="New API key">
        <button id="copy-key" type="button">Copy</button>
      </div>
      <p id="copy-result" class="hint" role="status"></p>
      <button id="new-key-done" type="button">I have stored the key</button>
    </section>

    <section id="teams-section" aria-labelledby="teams-heading" hidden>
      <h2 id="teams-heading">Teams</h2>
      <table id="teams-table">
        <thead><tr><th scope="col">Team</th><th scope="col">API</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="teams-body"></tbody>
      </table>
      <p id="teams-empty" hidden>No teams yet. Create one with <code>vsf-server teams create &lt;name&gt;</code>.</p>
    </section>

    <section id="team-section" aria-labelledby="team-heading" hidden>
      <h2 id="team-heading"></h2>
      <div class="api-switch">
        <p id="api-state"></p>
        <button id="api-toggle" type="button"></button>
      </div>

      <form id="create-key-form" aria-labelledby="create-key-heading">
        <h3 id="create-key-heading">Create an API key</h3>
        <label for="key-name">Name</label>
        <input id="key-name" name="name" type="text" required maxlength="200" placeholder="Website inventory feed">
        <fieldset class="scopes">
          <legend>Scopes</legend>
          <p class="hint">Write access is never implied by read access: a write needs both, so ticking write also ticks read.</p>
          <div class="scope-grid">
        ${renderScopeGroups()}
          </div>
        </fieldset>
        <label for="key-expiry">Expires</label>
        <input id="key-expiry" name="expiresAt" type="datetime-local">
        <p class="hint">In your browser's time zone. Leave empty for a key that does not expire.</p>
        <button type="submit">Create key</button>
      </form>

      <h3>API keys</h3>
      <table id="keys-table">
        <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="keys-body"></tbody>
      </table>
      <p id="keys-empty" hidden>This team has no API keys yet.</p>

      <section id="members-section" aria-labelledby="members-heading">
        <h3 id="members-heading">Members (assistant sign-in)</h3>
        <p class="hint">Members sign an AI assistant in to this server's assistant connector (<code>/mcp</code>) with their email and password, and may grant it at most the scopes ticked for them. Their grants are listed below.</p>
        <form id="create-member-form" aria-labelledby="create-member-heading">
          <h4 id="create-member-heading">Add a member</h4>
          <label for="member-email">Email</label>
          <input id="member-email" name="email" type="email" required maxlength="320" autocomplete="off" placeholder="sam@example.com">
          <p class="hint">Their sign-in name. One email signs in to one team.</p>
          <label for="member-password">Password</label>
          <input id="member-password" name="password" type="password" required minlength="8" maxlength="256" autocomplete="new-password">
          <p class="hint">At least 8 characters. Tell it to the member over a private channel: the server keeps only a hash and cannot show it again.</p>
          <fieldset class="scopes">
            <legend>Scopes the member may grant</legend>
            <p class="hint">An assistant's grant never holds more than these; with none ticked the member can sign in but grant nothing. Ticking write also ticks read.</p>
            <div class="scope-grid">
        ${renderScopeGroups(ASSISTANT_RESOURCES)}
            </div>
          </fieldset>
          <button type="submit">Add member</button>
        </form>
        <table id="members-table">
          <thead><tr><th scope="col">Email</th><th scope="col">May grant</th><th scope="col">Added</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody id="members-body"></tbody>
        </table>
        <p id="members-empty" hidden>This team has no members yet: nobody can sign an assistant in.</p>
      </section>

      <section id="grants-section" aria-labelledby="grants-heading">
        <div class="section-heading">
          <h3 id="grants-heading">Assistant grants</h3>
          <button id="grants-refresh" type="button" class="secondary">Refresh grants</button>
        </div>
        <p class="hint">What members allowed each assistant. Revoking a grant stops its tokens on their next request; the assistant must be signed in again.</p>
        <table id="grants-table">
          <thead><tr><th scope="col">Member</th><th scope="col">Assistant</th><th scope="col">Scopes</th><th scope="col">Granted</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody id="grants-body"></tbody>
        </table>
        <p id="grants-empty" hidden>No assistant has been signed in for this team yet.</p>
      </section>
    </section>
  </main>
</body>
</html>
`;
}
