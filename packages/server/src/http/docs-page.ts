import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';
import { isDirectLoopbackRequest } from './loopback-request.js';

/**
 * `GET /docs`: Swagger UI over the served OpenAPI document. Every asset comes from the installed
 * `swagger-ui-dist` package, so the page works with no internet access and loads nothing from a CDN.
 * Swagger UI was chosen over Scalar because Scalar's package requires Node 22.
 */
export interface DocsPageOptions {
  /** URL of the OpenAPI document the page renders (same origin). */
  openApiUrl: string;
  /**
   * The demo key this process created on a brand-new database (`vsf-server start`), if any. The page
   * pre-fills it only for a browser on this machine; see `isDirectLoopbackRequest`.
   */
  demoApiKey: () => string | undefined;
}

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files the page needs, by the name they are served under; nothing else in the package is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'swagger-ui.css',
  'swagger-ui-bundle.js': 'swagger-ui-bundle.js',
  'favicon-32x32.png': 'favicon-32x32.png',
};

/**
 * Starts Swagger UI from the page's data attributes. It is a file, not an inline script, so helmet's
 * default Content-Security-Policy (`script-src 'self'`) needs no exception.
 */
const INITIALIZER = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  var demoKey = root.getAttribute('data-demo-key');
  var ui = SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: false,
    // The default validator badge calls validator.swagger.io; the page must not reach outside this server.
    validatorUrl: null,
    // BaseLayout has no "explore" box, so the page renders only this server's document.
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    onComplete: function () {
      if (demoKey) ui.preauthorizeApiKey('apiKeyHeader', demoKey);
    }
  });
  window.ui = ui;
});
`;

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function renderPage(openApiUrl: string, demoKey: string | undefined): string {
  const demo = demoKey ? ` data-demo-key="${escapeAttribute(demoKey)}"` : '';
  const banner = demoKey
    ? '<p class="vsf-demo">Demo mode: the demo team\'s key (every scope) is filled in under <b>Authorize</b>. Use <b>Try it out</b> on any call.</p>'
    : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Car Storage API reference</title>
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  ${banner}
  <div id="swagger-ui" data-openapi-url="${escapeAttribute(openApiUrl)}"${demo}></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/vsf-docs-init.js"></script>
</body>
</html>
`;
}

export function docsPage(options: DocsPageOptions): Router {
  const router = express.Router();
  router.get('/', (req, res) => {
    const demoKey = isDirectLoopbackRequest(req) ? options.demoApiKey() : undefined;
    res.set('Cache-Control', 'no-store').type('html').send(renderPage(options.openApiUrl, demoKey));
  });
  router.get('/assets/vsf-docs-init.js', (_req, res) => {
    res.type('text/javascript').send(INITIALIZER);
  });
  router.get('/assets/:file', (req, res, next) => {
    const file = Object.hasOwn(ASSETS, req.params.file) ? ASSETS[req.params.file] : undefined;
    if (!file) return next();
    // `root` rather than an absolute path: pnpm installs under `.pnpm`, and `send` refuses dot-directories
    // in the part of the path it is given.
    res.sendFile(file, { root: swaggerDir, maxAge: '1d' });
  });
  return router;
}
