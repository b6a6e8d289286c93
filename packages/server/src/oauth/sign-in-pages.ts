import type { Response } from 'express';

/** The cookie half of the double-submit CSRF check; the form carries the other half. */
export const CSRF_COOKIE = 'vsf_oauth_csrf';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · vsf</title>
<link rel="stylesheet" href="/admin/assets/admin-page.css">
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/**
 * Sends one of the connector's pages: no caching, no framing (a consent form in someone's iframe is a
 * clickjacking trap), and a new CSRF cookie matching the form's hidden field. SameSite=Strict: a form
 * posted from another site arrives without it and is refused.
 */
function send(res: Response, status: number, html: string, csrfToken?: string): void {
  res.set({ 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' });
  if (csrfToken) {
    res.cookie(CSRF_COOKIE, csrfToken, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/oauth',
      secure: res.req.secure,
      maxAge: 15 * 60 * 1000,
    });
  }
  res.status(status).type('html').send(html);
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

export interface SignInView {
  requestId: string;
  csrfToken: string;
  clientName: string;
  error?: string;
  email?: string;
}

export function renderSignIn(res: Response, view: SignInView, status = 200): void {
  const error = view.error ? `<p role="alert" class="error">${escapeHtml(view.error)}</p>` : '';
  send(
    res,
    status,
    page(
      'Sign in',
      `<p>${escapeHtml(view.clientName)} asks to use the Vehicle Storage Facility API on your behalf. Sign in with your team member account.</p>
${error}
<form method="post" action="/oauth/sign-in">
${hidden('request', view.requestId)}
${hidden('csrf_token', view.csrfToken)}
<label>Email <input type="email" name="email" autocomplete="username" required maxlength="320" value="${escapeHtml(view.email ?? '')}"></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required maxlength="256"></label>
<button type="submit">Sign in</button>
</form>`,
    ),
    view.csrfToken,
  );
}

export interface ConsentView {
  requestId: string;
  csrfToken: string;
  clientName: string;
  redirectHost: string;
  email: string;
  /** Requested scopes the member may grant: one checkbox each, ticked. */
  offered: string[];
  /** Requested scopes the member may not grant: listed, never offered. */
  withheld: string[];
}

export function renderConsent(res: Response, view: ConsentView): void {
  const boxes = view.offered
    .map(
      (s) =>
        `<li><label><input type="checkbox" name="scope" value="${escapeHtml(s)}" checked> ${escapeHtml(s)}</label></li>`,
    )
    .join('\n');
  const withheld = view.withheld.length
    ? `<p>Also asked for, which you may not grant: ${view.withheld.map(escapeHtml).join(', ')}.</p>`
    : '';
  const choice = view.offered.length
    ? `<ul>\n${boxes}\n</ul>\n<button type="submit" name="decision" value="allow">Allow</button>`
    : '<p>You may grant none of the scopes it asks for.</p>';
  send(
    res,
    200,
    page(
      'Allow access?',
      `<p>Signed in as ${escapeHtml(view.email)}.</p>
<p><strong>${escapeHtml(view.clientName)}</strong> (returning to <strong>${escapeHtml(view.redirectHost)}</strong>) asks for these scopes. Untick any you do not want to give.</p>
<form method="post" action="/oauth/consent">
${hidden('request', view.requestId)}
${hidden('csrf_token', view.csrfToken)}
${choice}
<button type="submit" name="decision" value="deny">Deny</button>
</form>
${withheld}`,
    ),
    view.csrfToken,
  );
}

/** A dead end the browser shows (expired or replayed form, missing CSRF token): no redirect to anyone. */
export function renderProblem(res: Response, status: number, message: string): void {
  send(
    res,
    status,
    page(
      'Cannot continue',
      `<p role="alert">${escapeHtml(message)}</p><p>Start the connection again from your assistant.</p>`,
    ),
  );
}
