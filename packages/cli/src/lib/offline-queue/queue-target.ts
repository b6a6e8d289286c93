import { createHash } from 'node:crypto';
import { VsfClient } from '@vsf/sdk';
import { type GlobalOptions, resolveCredentials } from '../context.js';

/** The server and key an entry belongs to. The key id is the public half of the key, never the secret. */
export interface QueueTarget {
  baseUrl: string;
  keyId: string;
}

export function keyId(apiKey: string): string {
  const dot = apiKey.indexOf('.');
  return dot > 0 ? apiKey.slice(0, dot) : `key-${createHash('sha256').update(apiKey).digest('hex').slice(0, 12)}`;
}

/** The target of the credentials this run uses, or undefined when there is no key (nothing can be sent). */
export function currentTarget(globals: GlobalOptions): QueueTarget | undefined {
  const { apiKey, baseUrl } = resolveCredentials(globals);
  if (!apiKey) return undefined;
  const client = new VsfClient({ apiKey, baseUrl, logLevel: 'off' });
  return { baseUrl: client.baseUrl, keyId: keyId(apiKey) };
}

export const sameTarget = (a: QueueTarget, b: QueueTarget) => a.baseUrl === b.baseUrl && a.keyId === b.keyId;

/** Why an entry waits in a run with other credentials: it names what differs, the key, the server or both. */
export function otherTargetReason(queued: QueueTarget, current: QueueTarget): string {
  const sameKey = queued.keyId === current.keyId;
  if (sameKey) return `queued for ${queued.baseUrl}, not ${current.baseUrl}; flush with --base-url ${queued.baseUrl}`;
  if (queued.baseUrl === current.baseUrl) return `queued for key ${queued.keyId}; flush with that key (VSF_API_KEY)`;
  return `queued for key ${queued.keyId} at ${queued.baseUrl}; flush with that key and --base-url ${queued.baseUrl}`;
}
