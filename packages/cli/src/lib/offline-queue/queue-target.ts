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
