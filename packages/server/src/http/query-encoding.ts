import type { ValidationDetail } from '../errors/api-http-error.js';

/** What a client is told of a `%` escape that is not UTF-8 (é is `%C3%A9`). */
export const MALFORMED_ESCAPE = 'Malformed percent-encoding (send the UTF-8 bytes of the text, é as %C3%A9)';

/**
 * Query names and values whose percent-escapes are not UTF-8. Node's query parser would turn them into
 * U+FFFD and store that in place of what the client meant; they are refused instead.
 */
export function malformedQueryEscapes(url: string): ValidationDetail[] {
  const start = url.indexOf('?');
  if (start < 0 || !url.includes('%', start)) return [];
  const problems: ValidationDetail[] = [];
  for (const pair of url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    const decodedName = decoded(name);
    if (decodedName === undefined || (equals >= 0 && decoded(pair.slice(equals + 1)) === undefined)) {
      problems.push({ path: decodedName ?? name.slice(0, 100), message: MALFORMED_ESCAPE });
    }
  }
  return problems;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}
