// The script of /admin: signs in with the admin token and drives the admin JSON API (/admin/v1).
// Plain ES module with JSDoc types (checked by tsc, see tsconfig.json here), served as a file so the
// page needs no build step and no inline script under the server's CSP.
//
// Secrets: the admin token lives in memory and in this tab's sessionStorage only (never in a URL or
// localStorage); a new key's secret lives only in the "new key" panel until the admin dismisses it; a
// member's password only in its form field until it is sent.

/**
 * @typedef {{ id: string, name: string, apiEnabled: boolean, createdAt: string, updatedAt: string }} Team
 * @typedef {{ id: string, teamId: string, name: string, prefix: string, scopes: string[],
 *   expiresAt: string | null, revokedAt: string | null, lastUsedAt: string | null,
 *   createdAt: string, updatedAt: string }} ApiKey
 * @typedef {ApiKey & { key: string }} CreatedApiKey
 * @typedef {{ id: string, teamId: string, email: string, scopes: string[], createdAt: string,
 *   updatedAt: string }} Member
 * @typedef {{ id: string, teamId: string, memberId: string, memberEmail: string, clientId: string,
 *   clientName: string, scopes: string[], createdAt: string, lastUsedAt: string | null,
 *   revokedAt: string | null }} Grant
 * @typedef {{ error?: string, code?: string, details?: unknown }} ErrorBody
 */

const TOKEN_STORAGE = 'vsf-admin-token';
const TEAM_STORAGE = 'vsf-admin-team';
const ADMIN_API = '/admin/v1';
/** The admin API's largest page: members and grants are read page by page until the total. */
const PAGE_SIZE = 200;

/** Thrown for a non-2xx answer of the admin API; `message` is the server's own `error` text. */
class AdminApiError extends Error {
  /**
   * @param {number} status
   * @param {ErrorBody | null} body
   */
  constructor(status, body) {
    super(describeError(status, body));
    this.status = status;
  }
}

/**
 * The server's message plus each validation problem, so the admin sees what to fix.
 * @param {number} status
 * @param {ErrorBody | null} body
 */
function describeError(status, body) {
  const message = typeof body?.error === 'string' ? body.error : `The admin API answered HTTP ${status}`;
  if (!Array.isArray(body?.details) || body.details.length === 0) return message;
  const problems = body.details.map((/** @type {{ path?: unknown, message?: unknown }} */ d) =>
    [Array.isArray(d.path) ? d.path.join('.') : d.path, d.message].filter(Boolean).join(': '),
  );
  return `${message}: ${problems.join('; ')}`;
}

const state = {
  /** @type {string | null} */
  token: sessionStorage.getItem(TOKEN_STORAGE),
  /** @type {Team[]} */
  teams: [],
  /** Whether `teams` holds an answer yet (an empty list before it is not "no teams"). */
  teamsLoaded: false,
  /** @type {string | null} */
  teamId: sessionStorage.getItem(TEAM_STORAGE),
  /** @type {ApiKey[]} */
  keys: [],
  /** @type {string | null} */
  editingKeyId: null,
  /** @type {Member[]} */
  members: [],
  /** @type {string | null} */
  editingMemberId: null,
  /** @type {Grant[]} */
  grants: [],
};

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {new () => T} type
 * @returns {T}
 */
function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`The admin page is missing #${id}`);
  return element;
}

const ui = {
  error: byId('error', HTMLElement),
  status: byId('status', HTMLElement),
  signOut: byId('sign-out', HTMLButtonElement),
  signInSection: byId('sign-in-section', HTMLElement),
  signInForm: byId('sign-in-form', HTMLFormElement),
  tokenInput: byId('admin-token', HTMLInputElement),
  newKeySection: byId('new-key-section', HTMLElement),
  newKeyLabel: byId('new-key-label', HTMLElement),
  newKeyValue: byId('new-key-value', HTMLInputElement),
  copyKey: byId('copy-key', HTMLButtonElement),
  copyResult: byId('copy-result', HTMLElement),
  newKeyDone: byId('new-key-done', HTMLButtonElement),
  teamsSection: byId('teams-section', HTMLElement),
  teamsBody: byId('teams-body', HTMLTableSectionElement),
  teamsEmpty: byId('teams-empty', HTMLElement),
  teamSection: byId('team-section', HTMLElement),
  teamHeading: byId('team-heading', HTMLElement),
  apiState: byId('api-state', HTMLElement),
  apiToggle: byId('api-toggle', HTMLButtonElement),
  createKeyForm: byId('create-key-form', HTMLFormElement),
  keyName: byId('key-name', HTMLInputElement),
  keyExpiry: byId('key-expiry', HTMLInputElement),
  keysBody: byId('keys-body', HTMLTableSectionElement),
  keysEmpty: byId('keys-empty', HTMLElement),
  createMemberForm: byId('create-member-form', HTMLFormElement),
  memberEmail: byId('member-email', HTMLInputElement),
  memberPassword: byId('member-password', HTMLInputElement),
  membersBody: byId('members-body', HTMLTableSectionElement),
  membersEmpty: byId('members-empty', HTMLElement),
  grantsRefresh: byId('grants-refresh', HTMLButtonElement),
  grantsBody: byId('grants-body', HTMLTableSectionElement),
  grantsEmpty: byId('grants-empty', HTMLElement),
};

/**
 * Calls the admin API with the token in the Authorization header (never in the URL).
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the response's `data`
 */
async function adminApi(method, path, body) {
  return (await adminJson(method, path, body))?.data;
}

/**
 * Every record of a paginated admin list (`{ data, page, limit, total }`), page by page.
 * @param {string} path
 * @returns {Promise<any[]>}
 */
async function adminListAll(path) {
  /** @type {any[]} */
  const records = [];
  for (let page = 1; ; page += 1) {
    const body = await adminJson('GET', `${path}?page=${page}&limit=${PAGE_SIZE}`);
    const data = Array.isArray(body?.data) ? body.data : [];
    records.push(...data);
    if (data.length === 0 || records.length >= Number(body?.total)) return records;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} the whole JSON answer
 */
async function adminJson(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { accept: 'application/json', authorization: `Bearer ${state.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(`${ADMIN_API}${path}`, {
      method,
      headers,
      cache: 'no-store',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new Error('Could not reach the server. Check that it is running, then try again.');
  }
  /** @type {any} */
  let json = null;
  try {
    json = await response.json();
  } catch {
    // A proxy's HTML error page: describeError falls back to the status.
  }
  if (!response.ok) throw new AdminApiError(response.status, json);
  return json;
}

/** @param {string} message */
function showStatus(message) {
  ui.error.hidden = true;
  ui.status.textContent = message;
}

/** @param {unknown} error */
function showError(error) {
  ui.status.textContent = '';
  ui.error.textContent = error instanceof Error ? error.message : String(error);
  ui.error.hidden = false;
}

/**
 * Runs an action with the error banner as its only failure path. A refused token (401) signs out,
 * since every further call would fail the same way.
 * @param {() => Promise<void>} action
 */
async function run(action) {
  try {
    await action();
  } catch (error) {
    if (error instanceof AdminApiError && error.status === 401 && state.token) {
      signOut();
      showError(`${error.message}. Sign in again with the server's current admin token.`);
      return;
    }
    showError(error);
  }
}

/**
 * Small element builder: text goes through textContent, never innerHTML, so names typed by admins
 * cannot inject markup.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string | boolean>} [attributes]
 * @param {Array<Node | string>} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, attributes = {}, children = []) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (value !== false) element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * @param {string | null} iso
 * @param {string} empty what to show without a date
 */
function dateCell(iso, empty) {
  if (!iso) return el('td', {}, [empty]);
  return el('td', {}, [el('time', { datetime: iso, title: iso }, [dateFormat.format(new Date(iso))])]);
}

/**
 * `datetime-local` works in the browser's zone without seconds; the API wants an instant with an offset.
 * @param {string} value
 * @returns {string | null} ISO instant, or null for an empty field
 */
function expiryFromInput(value) {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error('The expiry is not a valid date and time.');
  if (date.getTime() <= Date.now()) {
    throw new Error('Pick an expiry in the future. To stop a key now, revoke it.');
  }
  return date.toISOString();
}

/** @param {string | null} iso */
function inputFromExpiry(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** @param {ApiKey} key */
function keyStatus(key) {
  if (key.revokedAt) return 'Revoked';
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= Date.now()) return 'Expired';
  return 'Active';
}

function selectedTeam() {
  return state.teams.find((team) => team.id === state.teamId);
}

function render() {
  const signedIn = state.token !== null;
  ui.signInSection.hidden = signedIn;
  ui.signOut.hidden = !signedIn;
  ui.teamsSection.hidden = !signedIn;
  renderTeams();
  renderTeam();
}

function renderTeams() {
  ui.teamsEmpty.hidden = !state.teamsLoaded || state.teams.length > 0;
  ui.teamsBody.replaceChildren(
    ...state.teams.map((team) => {
      const selected = team.id === state.teamId;
      const manage = el('button', { type: 'button', class: 'secondary', 'aria-label': `Manage ${team.name}` }, [
        selected ? 'Selected' : 'Manage',
      ]);
      manage.disabled = selected;
      manage.addEventListener('click', () => run(() => selectTeam(team.id)));
      return el('tr', { class: selected ? 'selected' : '', 'data-team-id': team.id }, [
        el('td', {}, [team.name]),
        el('td', {}, [
          el('span', { class: team.apiEnabled ? 'state-on' : 'state-off' }, [team.apiEnabled ? 'On' : 'Off']),
        ]),
        el('td', {}, [manage]),
      ]);
    }),
  );
}

function renderTeam() {
  const team = selectedTeam();
  ui.teamSection.hidden = !team || state.token === null;
  if (!team) return;
  ui.teamHeading.textContent = team.name;
  ui.apiState.replaceChildren(
    'API access: ',
    el('span', { class: team.apiEnabled ? 'state-on' : 'state-off' }, [team.apiEnabled ? 'on' : 'off']),
    team.apiEnabled
      ? ''
      : ' — every key of this team gets 403 "API is disabled for this team" until it is turned on. Keys are kept.',
  );
  ui.apiToggle.textContent = team.apiEnabled ? 'Turn API off' : 'Turn API on';
  ui.apiToggle.className = team.apiEnabled ? 'danger' : '';
  renderKeys();
  renderMembers();
  renderGrants();
}

function renderKeys() {
  ui.keysEmpty.hidden = state.keys.length > 0;
  ui.keysBody.replaceChildren(...state.keys.map((key) => (key.id === state.editingKeyId ? editRow(key) : keyRow(key))));
}

/**
 * One key, as the list shows it: the public prefix only, never a secret (the API does not return one).
 * @param {ApiKey} key
 */
function keyRow(key) {
  const status = keyStatus(key);
  const actions = el('td');
  if (status !== 'Revoked') {
    const edit = el('button', { type: 'button', class: 'secondary', 'aria-label': `Edit ${key.name}` }, ['Edit']);
    edit.addEventListener('click', () => {
      state.editingKeyId = key.id;
      renderKeys();
    });
    const revoke = el('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.name}` }, ['Revoke']);
    revoke.addEventListener('click', () => run(() => revokeKey(key)));
    actions.append(edit, revoke);
  }
  return el('tr', { 'data-key-id': key.id }, [
    el('td', {}, [key.name]),
    el('td', {}, [el('code', {}, [`vsf_${key.prefix}.…`])]),
    el('td', {}, [
      el(
        'div',
        { class: 'scope-list' },
        key.scopes.map((scope) => el('code', {}, [scope])),
      ),
    ]),
    dateCell(key.createdAt, ''),
    dateCell(key.expiresAt, 'Never'),
    dateCell(key.lastUsedAt, 'Never'),
    el('td', { class: status === 'Active' ? 'state-on' : 'state-off' }, [
      status === 'Revoked' && key.revokedAt ? `Revoked ${dateFormat.format(new Date(key.revokedAt))}` : status,
    ]),
    actions,
  ]);
}

/**
 * The row of the key being renamed or given a new expiry.
 * @param {ApiKey} key
 */
function editRow(key) {
  const name = el('input', { type: 'text', required: true, maxlength: '200', 'aria-label': 'Key name' });
  name.value = key.name;
  const expiry = el('input', { type: 'datetime-local', 'aria-label': 'Key expiry' });
  const originalExpiry = inputFromExpiry(key.expiresAt);
  expiry.value = originalExpiry;
  const cancel = el('button', { type: 'button', class: 'secondary' }, ['Cancel']);
  cancel.addEventListener('click', () => {
    state.editingKeyId = null;
    renderKeys();
  });
  const form = el('form', { class: 'edit-key', 'aria-label': `Edit ${key.name}` }, [
    el('label', {}, ['Name ', name]),
    el('label', {}, ['Expires ', expiry]),
    el('span', { class: 'hint' }, ['Empty: never expires.']),
    el('div', {}, [el('button', { type: 'submit' }, ['Save']), cancel]),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run(async () => {
      /** @type {{ name?: string, expiresAt?: string | null }} */
      const patch = {};
      if (name.value.trim() !== key.name) patch.name = name.value.trim();
      // Only a changed field is sent: the input drops seconds, so resending would move the expiry.
      if (expiry.value !== originalExpiry) patch.expiresAt = expiryFromInput(expiry.value);
      if (Object.keys(patch).length > 0) {
        const updated = /** @type {ApiKey} */ (await adminApi('PATCH', `/keys/${encodeURIComponent(key.id)}`, patch));
        state.keys = state.keys.map((k) => (k.id === updated.id ? updated : k));
        showStatus(`Saved key "${updated.name}".`);
      }
      state.editingKeyId = null;
      renderKeys();
    });
  });
  return el('tr', { 'data-key-id': key.id }, [el('td', { colspan: '8' }, [form])]);
}

/**
 * A list of scopes as small code tags; an empty list says so.
 * @param {string[]} scopes
 * @param {string} empty
 */
function scopeList(scopes, empty) {
  if (scopes.length === 0) return el('span', { class: 'hint' }, [empty]);
  return el(
    'div',
    { class: 'scope-list' },
    scopes.map((scope) => el('code', {}, [scope])),
  );
}

/**
 * The scope values ticked in a form.
 * @param {HTMLElement} container
 */
function tickedScopes(container) {
  return [...container.querySelectorAll('input[name="scope"]:checked')].map(
    (input) => /** @type {HTMLInputElement} */ (input).value,
  );
}

/**
 * Whether two scope lists hold the same scopes, in any order.
 * @param {string[]} a
 * @param {string[]} b
 */
function sameScopes(a, b) {
  return a.length === b.length && a.every((scope) => b.includes(scope));
}

function renderMembers() {
  ui.membersEmpty.hidden = state.members.length > 0;
  ui.membersBody.replaceChildren(
    ...state.members.map((member) => (member.id === state.editingMemberId ? memberEditRow(member) : memberRow(member))),
  );
}

/** @param {Member} member */
function memberRow(member) {
  const edit = el('button', { type: 'button', class: 'secondary', 'aria-label': `Edit member ${member.email}` }, [
    'Edit',
  ]);
  edit.addEventListener('click', () => {
    state.editingMemberId = member.id;
    renderMembers();
  });
  const remove = el('button', { type: 'button', class: 'danger', 'aria-label': `Delete member ${member.email}` }, [
    'Delete',
  ]);
  remove.addEventListener('click', () => run(() => deleteMember(member)));
  return el('tr', { 'data-member-id': member.id }, [
    el('td', {}, [member.email]),
    el('td', {}, [scopeList(member.scopes, 'Nothing (can sign in, cannot grant)')]),
    dateCell(member.createdAt, ''),
    el('td', {}, [edit, remove]),
  ]);
}

/**
 * The row of the member whose scopes or password change: the add form's scope checkboxes, copied.
 * @param {Member} member
 */
function memberEditRow(member) {
  const grid = ui.createMemberForm.querySelector('.scope-grid');
  const scopes = el('fieldset', { class: 'scopes' }, [el('legend', {}, ['Scopes the member may grant'])]);
  if (grid) {
    const copy = /** @type {HTMLElement} */ (grid.cloneNode(true));
    for (const input of copy.querySelectorAll('input[name="scope"]')) {
      const box = /** @type {HTMLInputElement} */ (input);
      box.checked = member.scopes.includes(box.value);
    }
    scopes.append(copy);
  }
  const password = el('input', {
    type: 'password',
    minlength: '8',
    maxlength: '256',
    autocomplete: 'new-password',
    'aria-label': 'New password',
  });
  const cancel = el('button', { type: 'button', class: 'secondary' }, ['Cancel']);
  cancel.addEventListener('click', () => {
    state.editingMemberId = null;
    renderMembers();
  });
  const form = el('form', { class: 'edit-member', 'aria-label': `Edit member ${member.email}` }, [
    el('p', {}, [el('strong', {}, [member.email])]),
    scopes,
    el('label', {}, ['New password ', password]),
    el('p', { class: 'hint' }, [
      'Leave empty to keep the current one. A new password ends every grant this member gave: their assistants must sign in again.',
    ]),
    el('div', {}, [el('button', { type: 'submit' }, ['Save member']), cancel]),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run(() => saveMember(member, tickedScopes(form), password.value));
  });
  return el('tr', { 'data-member-id': member.id }, [el('td', { colspan: '4' }, [form])]);
}

/**
 * @param {Member} member
 * @param {string[]} scopes
 * @param {string} password empty: unchanged
 */
async function saveMember(member, scopes, password) {
  /** @type {{ scopes?: string[], password?: string }} */
  const patch = {};
  if (!sameScopes(scopes, member.scopes)) patch.scopes = scopes;
  if (password) {
    if (password.length < 8) throw new Error('Use at least 8 characters for the new password.');
    if (
      !confirm(
        `Set a new password for ${member.email}? Every grant they gave ends now: their assistants must be signed in again.`,
      )
    ) {
      return;
    }
    patch.password = password;
  }
  if (Object.keys(patch).length > 0) {
    const updated = /** @type {Member} */ (
      await adminApi('PATCH', `${teamPath()}/members/${encodeURIComponent(member.id)}`, patch)
    );
    state.members = state.members.map((m) => (m.id === updated.id ? updated : m));
    showStatus(
      patch.password
        ? `Saved member ${updated.email}; their grants ended with the old password.`
        : `Saved member ${updated.email}.`,
    );
    if (patch.password) await loadGrants();
  }
  state.editingMemberId = null;
  renderMembers();
  renderGrants();
}

/** @param {Member} member */
async function deleteMember(member) {
  if (
    !confirm(
      `Delete member ${member.email}? They can no longer sign in, and every grant they gave ends: their assistants get 401 from their next request. This cannot be undone.`,
    )
  ) {
    return;
  }
  await adminApi('DELETE', `${teamPath()}/members/${encodeURIComponent(member.id)}`);
  state.members = state.members.filter((m) => m.id !== member.id);
  if (state.editingMemberId === member.id) state.editingMemberId = null;
  // Their grants went with them.
  state.grants = state.grants.filter((g) => g.memberId !== member.id);
  renderMembers();
  renderGrants();
  showStatus(`Deleted member ${member.email}.`);
}

async function createMember() {
  const team = selectedTeam();
  if (!team) return;
  const email = ui.memberEmail.value.trim();
  const password = ui.memberPassword.value;
  if (!email) throw new Error('Give the member an email: they sign in with it.');
  if (password.length < 8) throw new Error('Give the member a password of at least 8 characters.');
  const created = /** @type {Member} */ (
    await adminApi('POST', `${teamPath()}/members`, { email, password, scopes: tickedScopes(ui.createMemberForm) })
  );
  state.members = [...state.members, created];
  ui.createMemberForm.reset();
  renderMembers();
  showStatus(`Added member ${created.email}.`);
}

function renderGrants() {
  ui.grantsEmpty.hidden = state.grants.length > 0;
  ui.grantsBody.replaceChildren(...state.grants.map(grantRow));
}

/** @param {Grant} grant */
function grantRow(grant) {
  const actions = el('td');
  if (!grant.revokedAt) {
    const revoke = el(
      'button',
      { type: 'button', class: 'danger', 'aria-label': `Revoke ${grant.clientName} of ${grant.memberEmail}` },
      ['Revoke'],
    );
    revoke.addEventListener('click', () => run(() => revokeGrant(grant)));
    actions.append(revoke);
  }
  return el('tr', { 'data-grant-id': grant.id }, [
    el('td', {}, [grant.memberEmail]),
    el('td', {}, [grant.clientName]),
    el('td', {}, [scopeList(grant.scopes, 'None')]),
    dateCell(grant.createdAt, ''),
    dateCell(grant.lastUsedAt, 'Never'),
    el('td', { class: grant.revokedAt ? 'state-off' : 'state-on' }, [
      grant.revokedAt ? `Revoked ${dateFormat.format(new Date(grant.revokedAt))}` : 'Active',
    ]),
    actions,
  ]);
}

/** @param {Grant} grant */
async function revokeGrant(grant) {
  if (
    !confirm(
      `Revoke what ${grant.memberEmail} allowed "${grant.clientName}"? Its tokens stop working on their next request; the assistant must be signed in again. This cannot be undone.`,
    )
  ) {
    return;
  }
  const revoked = /** @type {Grant} */ (
    await adminApi('POST', `${teamPath()}/grants/${encodeURIComponent(grant.id)}/revoke`)
  );
  state.grants = state.grants.map((g) => (g.id === revoked.id ? revoked : g));
  renderGrants();
  showStatus(`Revoked the grant of "${revoked.clientName}" for ${revoked.memberEmail}.`);
}

/** `/teams/<id>` of the selected team. */
function teamPath() {
  if (!state.teamId) throw new Error('Pick a team first.');
  return `/teams/${encodeURIComponent(state.teamId)}`;
}

async function loadTeams() {
  state.teams = /** @type {Team[]} */ (await adminApi('GET', '/teams'));
  state.teamsLoaded = true;
  if (!selectedTeam()) state.teamId = state.teams.length === 1 ? (state.teams[0]?.id ?? null) : null;
  if (state.teamId) await loadTeamData();
  render();
}

/** The selected team's keys, members and grants, side by side. */
async function loadTeamData() {
  if (!state.teamId) return;
  const path = teamPath();
  const [keys, members, grants] = await Promise.all([
    adminApi('GET', `${path}/keys`),
    adminListAll(`${path}/members`),
    adminListAll(`${path}/grants`),
  ]);
  state.keys = /** @type {ApiKey[]} */ (keys);
  state.members = /** @type {Member[]} */ (members);
  state.grants = /** @type {Grant[]} */ (grants);
}

async function loadGrants() {
  if (!state.teamId) return;
  state.grants = /** @type {Grant[]} */ (await adminListAll(`${teamPath()}/grants`));
}

/** @param {string} teamId */
async function selectTeam(teamId) {
  state.teamId = teamId;
  state.editingKeyId = null;
  state.editingMemberId = null;
  sessionStorage.setItem(TEAM_STORAGE, teamId);
  await loadTeamData();
  render();
}

/** @param {string} token */
async function signIn(token) {
  state.token = token;
  try {
    await loadTeams();
  } catch (error) {
    state.token = null;
    throw error;
  }
  sessionStorage.setItem(TOKEN_STORAGE, token);
  ui.tokenInput.value = '';
  showStatus('Signed in.');
}

function signOut() {
  state.token = null;
  state.teams = [];
  state.teamsLoaded = false;
  state.keys = [];
  state.members = [];
  state.editingMemberId = null;
  state.grants = [];
  state.teamId = null;
  sessionStorage.removeItem(TOKEN_STORAGE);
  sessionStorage.removeItem(TEAM_STORAGE);
  hideNewKey();
  render();
}

async function toggleApi() {
  const team = selectedTeam();
  if (!team) return;
  const enable = !team.apiEnabled;
  if (
    !enable &&
    !confirm(
      `Turn the API off for "${team.name}"? Every integration using its keys gets 403 "API is disabled for this team" from its next request. Keys are kept and work again when the API is turned back on.`,
    )
  ) {
    return;
  }
  const updated = /** @type {Team} */ (
    await adminApi('PATCH', `/teams/${encodeURIComponent(team.id)}`, { apiEnabled: enable })
  );
  state.teams = state.teams.map((t) => (t.id === updated.id ? updated : t));
  render();
  showStatus(`API turned ${updated.apiEnabled ? 'on' : 'off'} for "${updated.name}".`);
}

/** @param {ApiKey} key */
async function revokeKey(key) {
  if (
    !confirm(
      `Revoke "${key.name}" (vsf_${key.prefix}.…)? Integrations using it get 401 "API key revoked" from their next request. This cannot be undone.`,
    )
  ) {
    return;
  }
  const revoked = /** @type {ApiKey} */ (await adminApi('POST', `/keys/${encodeURIComponent(key.id)}/revoke`));
  state.keys = state.keys.map((k) => (k.id === revoked.id ? revoked : k));
  renderKeys();
  showStatus(`Revoked key "${revoked.name}".`);
}

async function createKey() {
  const team = selectedTeam();
  if (!team) return;
  const name = ui.keyName.value.trim();
  if (!name) throw new Error('Give the key a name, e.g. the integration that will use it.');
  const scopes = tickedScopes(ui.createKeyForm);
  if (scopes.length === 0) throw new Error('Tick at least one scope: a key without scopes can call nothing.');
  const expiresAt = expiryFromInput(ui.keyExpiry.value);
  const created = /** @type {CreatedApiKey} */ (
    await adminApi('POST', `/teams/${encodeURIComponent(team.id)}/keys`, {
      name,
      scopes,
      ...(expiresAt ? { expiresAt } : {}),
    })
  );
  const { key: secret, ...listed } = created;
  state.keys = [listed, ...state.keys];
  ui.createKeyForm.reset();
  showNewKey(team, listed, secret);
  renderKeys();
  showStatus(`Created key "${listed.name}".`);
}

/**
 * @param {Team} team
 * @param {ApiKey} key
 * @param {string} secret the full key, shown here once
 */
function showNewKey(team, key, secret) {
  ui.newKeyLabel.textContent = `Key "${key.name}" of team "${team.name}".`;
  ui.newKeyValue.value = secret;
  ui.copyResult.textContent = '';
  ui.newKeySection.hidden = false;
  ui.newKeyValue.focus();
  ui.newKeyValue.select();
}

function hideNewKey() {
  ui.newKeyValue.value = '';
  ui.newKeyLabel.textContent = '';
  ui.copyResult.textContent = '';
  ui.newKeySection.hidden = true;
}

async function copyNewKey() {
  try {
    await navigator.clipboard.writeText(ui.newKeyValue.value);
    ui.copyResult.textContent = 'Copied to the clipboard.';
  } catch {
    // The clipboard API needs a secure context (HTTPS or localhost) and permission.
    ui.newKeyValue.focus();
    ui.newKeyValue.select();
    ui.copyResult.textContent = 'This browser blocked copying: the key is selected, press Ctrl+C (⌘C on a Mac).';
  }
}

ui.signInForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const token = ui.tokenInput.value.trim();
  if (token) run(() => signIn(token));
});
ui.signOut.addEventListener('click', () => {
  signOut();
  showStatus('Signed out.');
});
ui.apiToggle.addEventListener('click', () => run(toggleApi));
ui.createKeyForm.addEventListener('submit', (event) => {
  event.preventDefault();
  run(createKey);
});
ui.createMemberForm.addEventListener('submit', (event) => {
  event.preventDefault();
  run(createMember);
});
ui.grantsRefresh.addEventListener('click', () =>
  run(async () => {
    await loadGrants();
    renderGrants();
    showStatus('Grants refreshed.');
  }),
);
// Ticking write ticks read of the same resource in the same form (a key's, a new or an edited member's):
// the API needs both for any write.
document.addEventListener('change', (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.name !== 'scope' || !input.form) return;
  if (!input.checked || !input.value.startsWith('write:')) return;
  const read = input.form.querySelector(`input[name="scope"][value="read:${input.value.slice('write:'.length)}"]`);
  if (read instanceof HTMLInputElement) read.checked = true;
});
ui.copyKey.addEventListener('click', () => run(copyNewKey));
ui.newKeyDone.addEventListener('click', () => {
  hideNewKey();
  showStatus('The full key is no longer shown anywhere. The list keeps only its prefix.');
});
// Leaving while the new key is still on screen would lose it for good: ask first.
window.addEventListener('beforeunload', (event) => {
  if (!ui.newKeySection.hidden) event.preventDefault();
});

render();
if (state.token) run(loadTeams);
