import { Router } from 'express';
import { contentSecurityPolicy } from 'helmet';
import { notFound } from '../../errors/api-http-error.js';
import { adminPageAsset } from './admin-page-assets.js';
import { renderAdminShell } from './render-admin-shell.js';

/**
 * The page's CSP: Helmet's defaults, tightened (styles from this origin only, no frames) and without
 * `upgrade-insecure-requests`. That directive makes a browser fetch the page's own script over HTTPS, so
 * on a server reached over plain HTTP by a LAN address the page would load without its script.
 */
export const pagePolicy = contentSecurityPolicy({
  useDefaults: true,
  directives: {
    'style-src': ["'self'"],
    'connect-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    'upgrade-insecure-requests': null,
  },
});

/**
 * `/admin`: the team admin's integration settings, a static shell plus one script that calls the admin
 * JSON API (`/admin/v1`) with the token the admin types in. The script and styles are files from this
 * origin; the page has no inline script, style or event handler, so a strict CSP holds.
 */
export function adminPage(options: { adminEnabled: boolean }): Router {
  const router = Router({ strict: false });
  const shell = renderAdminShell(options);

  router.get('/', pagePolicy, (_req, res) => {
    res.set('Cache-Control', 'no-store').type('html').send(shell);
  });

  router.get('/assets/:name', async (req, res) => {
    const asset = adminPageAsset(req.params.name);
    if (!asset) throw notFound('Admin page asset');
    const { contentType, body } = await asset;
    // Revalidated on every load (express adds an ETag), so a server upgrade never runs an old script.
    res.set({ 'Content-Type': contentType, 'Cache-Control': 'no-cache' }).send(body);
  });

  return router;
}
