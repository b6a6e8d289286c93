/**
 * Secrets never reach a log line, wherever the client put them: keys, admin tokens, bearer and basic
 * credentials and cookies, in headers, query parameters of any name and case, or path segments.
 */
export const REDACTED = '[redacted]';

/** Anything shaped like an API key (`vsf_<prefix>.<secret>`), whatever case the tag is in. */
const API_KEY_LIKE = /vsf_[0-9a-z]{12}[.\s:]?[A-Za-z0-9_-]{16,}/gi;
/** `Bearer x`, `Basic x`, `Digest x` credentials inside any text. */
const SCHEME_CREDENTIAL = /\b(bearer|basic|digest)(\s+|%20|\+)[^\s"',;&]+/gi;
/** Query parameter and header names whose values are credentials whatever they look like. */
const SECRET_NAME = /key|token|secret|auth|passw|pwd|cookie|session|signature|credential|sig$|^code$/i;

export interface RedactOptions {
  /** Secrets known to this process (the admin token), redacted wherever they appear. */
  secrets?: readonly (string | undefined)[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * One pattern for all of a process's known secrets, in every spelling, compiled once per options object:
 * every log line and every URL segment is scrubbed, so building the patterns per call cost more than
 * the rest of a request's logging.
 */
const secretPatterns = new WeakMap<RedactOptions, RegExp | null>();
function secretPattern(options: RedactOptions): RegExp | null {
  let pattern = secretPatterns.get(options);
  if (pattern === undefined) {
    // As written, and as it reads inside a JSON string (a log line) or a URL; longest first, so no
    // spelling is cut short by another that is its prefix.
    const forms = (options.secrets ?? [])
      .filter((secret): secret is string => Boolean(secret))
      .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)])
      .sort((a, b) => b.length - a.length);
    pattern = forms.length > 0 ? new RegExp([...new Set(forms)].map(escapeRegExp).join('|'), 'gi') : null;
    secretPatterns.set(options, pattern);
  }
  return pattern;
}

/** Redacts every known secret and every credential-shaped substring of `text`. */
export function redactText(text: string, options: RedactOptions = {}): string {
  const out = text.replace(API_KEY_LIKE, REDACTED).replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);
  const secrets = secretPattern(options);
  return secrets ? out.replace(secrets, REDACTED) : out;
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** True when `raw` or its percent-decoded form carries a secret. */
function carriesSecret(raw: string, options: RedactOptions): boolean {
  if (redactText(raw, options) !== raw) return true;
  const decoded = safeDecode(raw);
  return decoded !== raw && redactText(decoded, options) !== decoded;
}

/** Each path segment that carries a secret (also percent-encoded) replaced. */
export function redactPathSegments(path: string, options: RedactOptions = {}): string {
  return path
    .split('/')
    .map((segment) => (carriesSecret(segment, options) ? REDACTED : segment))
    .join('/');
}

/**
 * False only when no segment of `path` can carry a secret, told by one pass over the whole path instead
 * of one per segment (every request's log line asks). A match inside a segment is a match inside the
 * path; a path that decodes whole decodes to its segments' decodings joined by `/` (an escape never
 * spans one), and one that does not decode whole is left to the per-segment check.
 */
function mayCarrySecret(path: string, options: RedactOptions): boolean {
  if (redactText(path, options) !== path) return true;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return decoded !== path && redactText(decoded, options) !== decoded;
}

/**
 * A request URL as it may be logged: every query value whose name says credential is redacted, and
 * every path segment, query name or value that carries a secret (also percent-encoded) is replaced.
 */
export function redactUrl(url: string, options: RedactOptions = {}): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? undefined : url.slice(queryAt + 1);
  const safePath = mayCarrySecret(path, options) ? redactPathSegments(path, options) : path;
  if (query === undefined) return safePath;
  const safeQuery = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (carriesSecret(name, options)) return REDACTED;
      if (eq === -1) return pair;
      const value = pair.slice(eq + 1);
      return SECRET_NAME.test(safeDecode(name)) || carriesSecret(value, options) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${safePath}?${safeQuery}`;
}
