import { z } from '../zod.js';
import { TEXT_MAX } from './bounds.js';

/** `/api/media/<uuid>`: bytes the team stored with this API (a photo or a marketing asset). */
export const MEDIA_PATH = /^\/api\/media\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export const MAX_URL_LENGTH = TEXT_MAX.url;

/**
 * Over the limit as `.max` counts, in code points: a check that skips what `.max` has refused must count as
 * it does, or a string of 4-byte characters at the limit (twice as long in UTF-16) would skip every check.
 */
const tooLong = (value: string) => value.length > MAX_URL_LENGTH && Array.from(value).length > MAX_URL_LENGTH;

const HTTPS_URL_RULE = 'an absolute https:// URL with a host, e.g. https://cdn.example.com/a.jpg';
const TOO_LONG = `A URL may have at most ${MAX_URL_LENGTH} characters`;

/**
 * Why `value` is not an absolute `https://` URL with a host, or undefined when it is.
 *
 * The WHATWG parser is forgiving for special schemes: it reads `https:example.com`, `https:/x` and
 * `https:///x` as `https://x/`, turns `\` into `/`, and drops tabs, newlines and surrounding spaces. A URL we
 * store is shown to people and fetched or linked by others, so it must already be in the form the parser
 * would produce, spelled out: `https://` then a host, no credentials, no whitespace, no backslashes.
 */
export function httpsUrlProblem(value: string): string | undefined {
  if (tooLong(value)) return TOO_LONG;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return 'A URL may not contain whitespace or control characters';
  if (value.includes('\\')) return 'A URL may not contain backslashes; use /';
  if (!/^https:\/\//i.test(value)) return `Expected ${HTTPS_URL_RULE}`;
  if (/^https:\/\/[/?#]/i.test(value) || value.length === 'https://'.length)
    return `The URL has no host; expected ${HTTPS_URL_RULE}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `Not a valid URL; expected ${HTTPS_URL_RULE}`;
  }
  if (url.protocol !== 'https:') return `Expected ${HTTPS_URL_RULE}`;
  if (url.username || url.password || /^https:\/\/[^/?#]*@/i.test(value))
    return 'A URL may not carry a user name or password';
  if (!url.hostname.replace(/\./g, '')) return `The URL has no host; expected ${HTTPS_URL_RULE}`;
  if (url.port === '0') return 'Port 0 cannot be connected to; use a port from 1 to 65535 or none';
  return undefined;
}

const addHttpsUrlProblem = (value: string, ctx: z.RefinementCtx) => {
  // `.max` has said so already.
  if (tooLong(value)) return;
  const problem = httpsUrlProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/**
 * A public web address the API stores or fetches (`sourceUrl`, `profileUrl`, external media): an absolute
 * `https://` URL with a host. Every URL field of the contract uses this (or `MediaUrl`), so one rule holds.
 */
export const HttpsUrl = z
  .string()
  .max(MAX_URL_LENGTH, TOO_LONG)
  .superRefine(addHttpsUrlProblem)
  .openapi({
    format: 'uri',
    description: `Must be ${HTTPS_URL_RULE}: no credentials, whitespace or backslashes; ports 1–65535`,
    example: 'https://cdn.example.com/spring-open-house.jpg',
  });

/**
 * A media reference in a message or post: a public `https://` URL (as `HttpsUrl`), or a team-owned
 * `/api/media/<uuid>` path. The schema checks the form; the server checks that a media path belongs to the
 * caller's team.
 */
export const MediaUrl = z
  .string()
  .max(MAX_URL_LENGTH, TOO_LONG)
  .superRefine((value, ctx) => {
    if (tooLong(value) || MEDIA_PATH.test(value)) return;
    const problem = httpsUrlProblem(value);
    if (problem)
      ctx.addIssue({ code: 'custom', message: `${problem} (or send a /api/media/<uuid> path of the team's media)` });
  })
  .openapi({
    description: `Either ${HTTPS_URL_RULE} (no credentials, whitespace or backslashes), or a \`/api/media/<uuid>\` path of the team's own media`,
    example: 'https://cdn.example.com/spring-open-house.jpg',
  });

/** The media id of a `/api/media/<uuid>` reference, or undefined for an external URL. */
export function mediaIdOf(reference: string): string | undefined {
  return MEDIA_PATH.exec(reference)?.[1]?.toLowerCase();
}
