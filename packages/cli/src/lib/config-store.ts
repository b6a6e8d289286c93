import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

export interface Profile {
  apiKey?: string;
  baseUrl?: string;
}

export interface ConfigFile {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return join(base, 'vsf', 'config.json');
}

export function readConfig(path = configPath()): ConfigFile {
  if (!existsSync(path)) return { profiles: {} };
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigFile>;
  return { ...parsed, profiles: parsed.profiles ?? {} };
}

/** Written owner-only (0600): the file holds API keys. */
export function writeConfig(config: ConfigFile, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, path);
  chmodSync(path, 0o600);
}

/** `vsf_abcdefghijkl.****`: enough to tell keys apart, never enough to use one. */
export function redactKey(key: string | undefined): string {
  if (!key) return '(none)';
  const dot = key.indexOf('.');
  return dot > 0 ? `${key.slice(0, dot)}.****` : '****';
}

/** The path every API root ends in: the server answers `/api/v1/cars`, not `/cars`. */
const API_PATH = '/api/v1';

/**
 * A base URL as a profile should keep it: the API root, `https://host/api/v1`. A bare origin (or one ending
 * in `/api`) is completed, since that is the one likely meaning, and `corrected` says so; any other path
 * or a text that is not an http(s) URL is refused with the fix, as every request would miss the API.
 */
export function apiRoot(text: string): { url: string; corrected: boolean } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(
      `--base-url "${text}" is not a URL; pass the API root, e.g. https://storage.example.com${API_PATH}`,
      EXIT.usage,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(`--base-url must be an http:// or https:// URL, got "${text}"`, EXIT.usage);
  if (url.search || url.hash)
    throw new CliError(
      `--base-url takes no query or fragment; pass the API root, e.g. ${url.origin}${API_PATH}`,
      EXIT.usage,
    );
  const path = url.pathname.replace(/\/+$/, '');
  if (path.endsWith(API_PATH)) return { url: `${url.origin}${path}`, corrected: false };
  if (path === '' || path.endsWith('/api'))
    return { url: `${url.origin}${path.replace(/\/api$/, '')}${API_PATH}`, corrected: true };
  throw new CliError(
    `--base-url ${text} does not end in ${API_PATH}, where the API answers; pass ${url.origin}${path}${API_PATH} if the API is served under ${path}, else ${url.origin}${API_PATH}`,
    EXIT.usage,
  );
}
