import { VsfClient } from '@vsf/sdk';
import { readConfig } from './config-store.js';
import { CliError, EXIT } from './exit-codes.js';

export interface GlobalOptions {
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

/** Flags beat the environment, which beats the profile (named, else the default one). */
export function resolveCredentials(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env) {
  const config = readConfig();
  const profileName = options.profile || env.VSF_PROFILE || config.defaultProfile || 'default';
  const profile = config.profiles[profileName] ?? {};
  if (options.profile && !config.profiles[options.profile]) {
    throw new CliError(
      `No profile "${options.profile}"; create it with: vsf config set --profile ${options.profile} --api-key <key>`,
      EXIT.usage,
    );
  }
  // An empty variable counts as unset, as it does for most CLIs.
  const apiKey = options.apiKey || env.VSF_API_KEY || profile.apiKey;
  const baseUrl = options.baseUrl || env.VSF_BASE_URL || profile.baseUrl;
  return { apiKey, baseUrl, profileName };
}

export function createClient(options: GlobalOptions, overrides: { apiKey?: string } = {}): VsfClient {
  const { apiKey, baseUrl } = resolveCredentials(options);
  const key = overrides.apiKey ?? apiKey;
  if (!key) {
    throw new CliError('No API key: pass --api-key, set VSF_API_KEY, or run vsf config set --api-key <key>', EXIT.auth);
  }
  return new VsfClient({ apiKey: key, baseUrl, logLevel: 'off' });
}
