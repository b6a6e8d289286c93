import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../src/runtime/start-server.js';
import { migratedPglite } from '../src/testing/migrated-pglite.js';
import { startTestServer, type TestServer, testServerConfig } from '../src/testing/start-test-server.js';

/** GET with headers fetch may not set (`Host`), from this machine's loopback. */
function getPage(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Writes `bytes` to the server at `url` as they are (two Host lines, an absolute-form target) and reads the reply. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    const parts: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => parts.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(parts).toString()));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no close within 10 s')));
    socket.end(bytes.replace('\r\n\r\n', '\r\nConnection: close\r\n\r\n'));
  });
}

/** Every `src`/`href` in the page, in order. */
const assetUrls = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1] as string);

describe('GET /docs without demo mode', () => {
  let server: TestServer;
  let html: string;
  let response: Response;
  beforeAll(async () => {
    server = await startTestServer({ useEnvDatabase: false });
    response = await fetch(`${server.origin}/docs`);
    html = await response.text();
  });
  afterAll(() => server?.close());

  it('serves an HTML page that renders the served OpenAPI document', async () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const documentUrl = html.match(/data-openapi-url="([^"]+)"/)?.[1];
    expect(documentUrl).toBe('/api/v1/openapi.json');
    const document = (await (await fetch(`${server.origin}${documentUrl}`)).json()) as { openapi: string };
    expect(document.openapi).toMatch(/^3\./);
  });

  it('references only assets of this server, with no external URL and no inline script', () => {
    const urls = assetUrls(html);
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) expect(url).toMatch(/^\/docs\/assets\/[\w.-]+$/);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toContain('data-demo-key');
  });

  it('serves every referenced asset with its content type', async () => {
    const expected: Record<string, RegExp> = {
      css: /^text\/css/,
      js: /^(text|application)\/javascript/,
      png: /^image\/png$/,
    };
    for (const url of assetUrls(html)) {
      const asset = await fetch(`${server.origin}${url}`);
      expect(asset.status, url).toBe(200);
      const extension = url.split('.').pop() as string;
      expect(asset.headers.get('content-type'), url).toMatch(expected[extension] as RegExp);
      expect((await asset.arrayBuffer()).byteLength, url).toBeGreaterThan(100);
    }
  });

  it('starts Swagger UI from a local script with the external validator turned off', async () => {
    const init = await (await fetch(`${server.origin}/docs/assets/vsf-docs-init.js`)).text();
    expect(init).toContain('SwaggerUIBundle(');
    expect(init).toContain('validatorUrl: null');
    expect(init).not.toMatch(/https?:\/\//);
  });

  it("keeps helmet's Content-Security-Policy, which allows only this origin's scripts", () => {
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-eval');
    // Which would send a browser on http://<LAN address>/docs to https:// for the page's own script.
    expect(csp).not.toContain('upgrade-insecure-requests');
  });

  it('serves nothing else from the renderer package', async () => {
    for (const path of ['package.json', 'index.html', 'constructor', '..%2Fpackage.json', 'swagger-ui.js']) {
      expect((await fetch(`${server.origin}/docs/assets/${path}`)).status, path).toBe(404);
    }
  });
});

describe('GET /docs when `vsf-server start` created the demo team', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await startServer(testServerConfig(), { bootstrapDemo: true, pglite: await migratedPglite() });
  });
  afterAll(() => running?.close());

  it('pre-fills the demo key for a browser on this machine, and the key works', async () => {
    const key = running.demo?.key as string;
    expect(key).toMatch(/^vsf_/);
    const html = await (await fetch(`${running.url}/docs`)).text();
    expect(html).toContain(`data-demo-key="${key}"`);
    const cars = await fetch(`${running.url}/api/v1/cars`, { headers: { 'x-api-key': key } });
    expect(cars.status).toBe(200);
  });

  it('never shows the key through a proxy', async () => {
    for (const header of [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.7' }]) {
      const html = await (await fetch(`${running.url}/docs`, { headers: header })).text();
      expect(html).not.toContain('data-demo-key');
      expect(html).toContain('data-openapi-url');
    }
  });

  it('shows the key for Host localhost, 127.0.0.1 and [::1] with the server port, in any case', async () => {
    const { port } = new URL(running.url);
    const key = running.demo?.key as string;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, `LocalHost:${port}`]) {
      expect(await getPage(`${running.url}/docs`, { host }), host).toContain(`data-demo-key="${key}"`);
    }
  });

  it('refuses two Host headers, and judges an absolute-form request line by its own host', async () => {
    const { port } = new URL(running.url);
    const key = running.demo?.key as string;
    const local = `localhost:${port}`;
    for (const hosts of [
      [local, 'evil.example'],
      ['evil.example', local],
      [local, local],
    ]) {
      const answer = await rawExchange(
        running.url,
        `GET /docs HTTP/1.1\r\n${hosts.map((h) => `Host: ${h}\r\n`).join('')}\r\n`,
      );
      expect(answer, hosts.join(' + ')).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).not.toContain(key);
    }
    // RFC 9112 §3.2.2: an absolute-form target's host wins over Host.
    const rebound = await rawExchange(
      running.url,
      `GET http://evil.example:${port}/docs HTTP/1.1\r\nHost: ${local}\r\n\r\n`,
    );
    expect(rebound).toMatch(/^HTTP\/1\.1 200 /);
    expect(rebound).not.toContain(key);
    const direct = await rawExchange(running.url, `GET http://${local}/docs HTTP/1.1\r\nHost: evil.example\r\n\r\n`);
    expect(direct).toContain(`data-demo-key="${key}"`);
  });

  it('never shows the key to a rebound name, another port, or a request any proxy header marks', async () => {
    const { port } = new URL(running.url);
    const other = String((Number(port) % 60000) + 1);
    const cases: Record<string, string>[] = [
      { host: `evil.example:${port}` }, // DNS rebinding: the name resolves to 127.0.0.1
      { host: 'evil.example' },
      { host: `localhost.evil.example:${port}` },
      { host: `127.0.0.2.evil.example:${port}` },
      { host: `localhost:${other}` }, // a tunnel that keeps the remote port (ssh -L 8080:localhost:3000)
      { host: 'localhost' },
      { host: `[::ffff:127.0.0.1]:${port}` },
      { host: `localhost:${port}`, 'x-forwarded-for': '203.0.113.7' },
      { host: `localhost:${port}`, forwarded: 'for=203.0.113.7' },
      { host: `localhost:${port}`, 'x-forwarded-host': 'vsf.example' },
      { host: `localhost:${port}`, 'x-forwarded-proto': 'https' },
      { host: `localhost:${port}`, 'x-real-ip': '203.0.113.7' },
      { host: `localhost:${port}`, via: '1.1 proxy' },
    ];
    for (const headers of cases) {
      const html = await getPage(`${running.url}/docs`, headers);
      expect(html, JSON.stringify(headers)).toContain('data-openapi-url');
      expect(html, JSON.stringify(headers)).not.toContain('data-demo-key');
      expect(html, JSON.stringify(headers)).not.toContain(running.demo?.key as string);
    }
  });
});
