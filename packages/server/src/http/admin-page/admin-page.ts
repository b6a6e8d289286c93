import { Router } from 'express';
import { notFound } from '../../errors/api-http-error.js';
import { adminPageAsset } from './admin-page-assets.js';
import { renderAdminShell } from './render-admin-shell.js';

/**
 * `/admin`: the team admin's integration settings, a static shell plus one script that calls the admin
 * JSON API (`/admin/v1`) with the token the admin types in. Helmet's default CSP applies unchanged: the
 * script and styles are files from this origin, and the page has no inline script, style or handler.
 */
export function adminPage(options: { adminEnabled: boolean }): Router {
  const router = Router({ strict: false });
  const shell = renderAdminShell(options);

  router.get('/', (_req, res) => {
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
