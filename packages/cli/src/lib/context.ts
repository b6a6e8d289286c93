import { type Logger, parseLogLevel, VsfClient } from '@vsf/sdk';
import { readConfig } from './config-store.js';
import { CliError, EXIT } from './exit-codes.js';
import { responseTimeoutMs, waitingForNetwork } from './network-wait.js';

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

export function createClient(
  options: GlobalOptions,
  overrides: { apiKey?: string; maxRetries?: number; responseTimeout?: number } = {},
): VsfClient {
  const { apiKey, baseUrl } = resolveCredentials(options);
  const key = overrides.apiKey ?? apiKey;
  if (!key) {
    throw new CliError('No API key: pass --api-key, set VSF_API_KEY, or run vsf config set --api-key <key>', EXIT.auth);
  }
  const client = new VsfClient({
    apiKey: key,
    baseUrl,
    // Quiet unless asked: the CLI reports failures itself. VSF_LOG=debug traces every request and retry.
    logLevel: parseLogLevel(process.env.VSF_LOG) ?? 'off',
    logger: stderrLogger,
    // A dead link is noticed in seconds (lib/network-wait.ts), and said on a terminal while retrying.
    responseTimeout: overrides.responseTimeout ?? responseTimeoutMs(),
    onRetry: waitingForNetwork(options),
    ...(overrides.maxRetries !== undefined ? { maxRetries: overrides.maxRetries } : {}),
  });
  lastBaseUrl = client.baseUrl;
  return client;
}

let lastBaseUrl: string | undefined;

/** The API root of the last client made, for errors that happen before any response (connection refused). */
export function clientBaseUrl(): string | undefined {
  return lastBaseUrl;
}

/** SDK log lines go to stderr (the SDK's console logger writes debug lines to stdout, which is for results). */
const line =
  (level: string) =>
  (message: string, fields?: Record<string, unknown>): void => {
    process.stderr.write(`[vsf ${level}] ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`);
  };
const stderrLogger: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
