import { isScope, type Scope } from '@vsf/contract';
import { forbidden, unauthorized } from './mock-errors.js';

/** A key as a test declares it: its scopes, or the scopes with the team and state of the key. */
export interface MockKeySpec {
  readonly scopes: readonly Scope[];
  /** The team the key belongs to (default `default`): keys of two teams never see each other's records. */
  readonly team?: string | undefined;
  /** ISO timestamp; at or after it (on the mock's clock) the key answers 401 `API key expired`. */
  readonly expiresAt?: string | undefined;
  readonly revoked?: boolean | undefined;
}
export type MockKeys = Readonly<Record<string, readonly Scope[] | MockKeySpec>>;

export interface MockKey {
  readonly id: string;
  readonly name: string;
  /** The string a test passes as the SDK's `apiKey`. */
  readonly token: string;
  readonly prefix: string;
  readonly team: string;
  readonly scopes: ReadonlySet<string>;
  expiresAt: string | null;
  revoked: boolean;
  readonly createdAt: string;
}

export const DEFAULT_TEAM = 'default';
/** The reference server's key format (packages/server/src/keys/api-key-format.ts). */
const KEY_PATTERN = /^vsf_([0-9a-z]{12})\.([A-Za-z0-9_-]{43,128})$/;

const randomChars = (length: number, alphabet: string) => {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
};

/** The keys of a mock, each made a token of the real format so an SDK or a key check takes it as real. */
export class KeyRing {
  readonly byName = new Map<string, MockKey>();
  private readonly byToken = new Map<string, MockKey>();
  /** Teams whose API is turned off: their keys answer 403 `API is disabled for this team`. */
  readonly disabledTeams = new Set<string>();

  constructor(keys: MockKeys, now: Date) {
    for (const [name, declared] of Object.entries(keys)) {
      const spec: MockKeySpec = Array.isArray(declared)
        ? { scopes: declared as readonly Scope[] }
        : (declared as MockKeySpec);
      const unknown = spec.scopes.filter((scope) => !isScope(scope));
      if (unknown.length > 0) {
        throw new TypeError(`createMockApi: key "${name}" has unknown scopes ${unknown.join(', ')}; see ALL_SCOPES`);
      }
      const prefix = randomChars(12, '0123456789abcdefghijklmnopqrstuvwxyz');
      const key: MockKey = {
        id: crypto.randomUUID(),
        name,
        token: `vsf_${prefix}.${randomChars(43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-')}`,
        prefix,
        team: spec.team ?? DEFAULT_TEAM,
        scopes: new Set(spec.scopes),
        expiresAt: spec.expiresAt ? new Date(spec.expiresAt).toISOString() : null,
        revoked: spec.revoked ?? false,
        createdAt: now.toISOString(),
      };
      this.byName.set(name, key);
      this.byToken.set(key.token, key);
    }
  }

  key(name: string): MockKey {
    const key = this.byName.get(name);
    if (!key) throw new TypeError(`createMockApi: no key "${name}"; declared: ${[...this.byName.keys()].join(', ')}`);
    return key;
  }

  /** The server's checks in its order: present → known → not revoked → not expired → team API on. */
  authenticate(request: Request, now: Date): MockKey {
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.get('authorization')?.trim() ?? '')?.[1]?.trim();
    const presented = bearer || request.headers.get('x-api-key')?.trim() || undefined;
    if (!presented) throw unauthorized('API key required', { presented: false });
    const key = KEY_PATTERN.test(presented) ? this.byToken.get(presented) : undefined;
    if (!key) throw unauthorized('Invalid API key');
    if (key.revoked) throw unauthorized('API key revoked');
    if (key.expiresAt && new Date(key.expiresAt) <= now) throw unauthorized('API key expired');
    if (this.disabledTeams.has(key.team)) throw forbidden('API is disabled for this team');
    return key;
  }
}
