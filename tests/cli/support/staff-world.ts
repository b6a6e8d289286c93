import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '@vsf/contract';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { runVsf, type VsfResult } from './run-vsf.js';

/** A 1×1 PNG: the smallest bytes the server accepts as a photo. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A valid PNG of `bytes` bytes (the 1×1 image, then padding the server keeps as it is). */
export const pngOfSize = (bytes: number) => Buffer.concat([PNG, Buffer.alloc(Math.max(0, bytes - PNG.length))]);

export interface GarageCar {
  car: { id: string };
  vin: string;
  zone: { id: string; name: string };
  spot: { id: string; name: string };
}

/**
 * A real test server and team, and the built `vsf` run as staff would, with its own config and data
 * directories: the garage the staff CLI suites drive.
 */
export interface StaffWorld {
  server: TestServer;
  key: string;
  home: string;
  api<T = { id: string }>(method: string, path: string, body?: unknown): Promise<T>;
  /** A zone, a spot in it and a car, each named uniquely. */
  garageCar(): Promise<GarageCar>;
  /** A directory of files under the world's home. */
  photoDir(name: string, files: Record<string, Buffer | string>): string;
  /** The environment the built `vsf` runs with: this team's key, `baseUrl`, the data home given. */
  env(baseUrl: string, dataHome: string, extra?: Record<string, string>): NodeJS.ProcessEnv;
  vsf(args: string[], baseUrl: string, dataHome: string, extra?: Record<string, string>): Promise<VsfResult>;
  close(): Promise<void>;
}

export async function startStaffWorld(prefix: string): Promise<StaffWorld> {
  const home = mkdtempSync(join(tmpdir(), `vsf-${prefix}-`));
  const server = await startTestServer();
  const { key } = await server.createTeamWithKey(ALL_SCOPES);
  let seq = 0;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const env = (baseUrl: string, dataHome: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...process.env,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: dataHome,
    VSF_BASE_URL: baseUrl,
    VSF_API_KEY: key,
    NO_COLOR: '1',
    VSF_LOG: '',
    ...extra,
  });
  return {
    server,
    key,
    home,
    api,
    async garageCar() {
      const n = ++seq;
      const zone = await api<{ id: string; name: string }>('POST', '/parking-zones', { name: `${prefix} hall ${n}` });
      const spot = await api<{ id: string; name: string }>('POST', '/parking-spots', {
        name: `${prefix}-${n}`,
        parkingZoneId: zone.id,
      });
      const vin = `${prefix}${n}X${Date.now().toString(36)}`.toUpperCase();
      const car = await api<{ id: string }>('POST', '/cars', { year: 1965, make: 'Shelby', model: 'Cobra', vin });
      return { car, vin, zone, spot };
    },
    photoDir(name, files) {
      const dir = join(home, name);
      mkdirSync(dir, { recursive: true });
      for (const [file, bytes] of Object.entries(files)) writeFileSync(join(dir, file), bytes);
      return dir;
    },
    env,
    vsf: (args, baseUrl, dataHome, extra) => runVsf(args, { env: env(baseUrl, dataHome, extra), cwd: home }),
    async close() {
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
