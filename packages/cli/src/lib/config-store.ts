import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

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
