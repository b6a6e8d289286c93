import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EndpointDefinition } from '../endpoint.js';
import { apiEndpoints } from '../endpoints/index.js';
import { HttpsUrl, httpsUrlProblem, MAX_URL_LENGTH, MediaUrl } from './media-url.js';

/** Each spelling with the decision taken for it and why. */
const DECISIONS: [url: string, accepted: boolean, why: string][] = [
  ['https://cdn.example.com/a.jpg', true, 'the plain form'],
  ['https://cdn.example.com', true, 'no path'],
  ['https://cdn.example.com/a.jpg?w=640#top', true, 'query and fragment'],
  ['HTTPS://cdn.example.com/a.jpg', true, 'the scheme is case-insensitive (RFC 3986)'],
  ['https://CDN.Example.com/a.jpg', true, 'so is the host'],
  ['https://cdn.example.com:8443/a.jpg', true, 'an explicit port'],
  ['https://cdn.example.com:443/a.jpg', true, 'the default port spelled out'],
  ['https://bücher.example/a.jpg', true, 'an IDNA host (the parser maps it to punycode)'],
  ['https://xn--bcher-kva.example/a.jpg', true, 'a punycode host'],
  ['https://cdn.example.com./a.jpg', true, 'a fully qualified host with its trailing dot'],
  ['https://203.0.113.7/a.jpg', true, 'an IPv4 host (the server decides which addresses it fetches)'],
  ['https://[2001:db8::1]/a.jpg', true, 'an IPv6 host'],
  ['https://cdn.example.com/a%20b.jpg', true, 'a percent-encoded space'],
  ['https:example.com/a.jpg', false, 'no // : the parser would guess the host'],
  ['https:/x', false, 'one slash'],
  ['https:///x', false, 'three slashes: the parser would skip the empty host'],
  ['https://', false, 'no host'],
  ['https://?q=1', false, 'no host before the query'],
  ['https://#a', false, 'no host before the fragment'],
  ['https://.', false, 'a host of dots only'],
  ['https://user:pass@cdn.example.com/a.jpg', false, 'credentials'],
  ['https://user@cdn.example.com/a.jpg', false, 'a user name'],
  ['https://@cdn.example.com/a.jpg', false, 'an empty user name'],
  ['https:\\\\cdn.example.com\\a.jpg', false, 'backslashes (read as / by the parser)'],
  ['https://cdn.example.com\\a.jpg', false, 'a backslash in the path'],
  [' https://cdn.example.com/a.jpg', false, 'leading whitespace (the parser strips it)'],
  ['https://cdn.example.com/a.jpg ', false, 'trailing whitespace'],
  ['https://cdn.example.com/a b.jpg', false, 'a space in the path'],
  ['https://cdn.exa\tmple.com/a.jpg', false, 'a tab (the parser drops it)'],
  ['https://cdn.example.com/a\n.jpg', false, 'a newline (the parser drops it)'],
  ['https://cdn.example.com/a\u0000.jpg', false, 'a NUL'],
  ['https://cdn.example.com:0/a.jpg', false, 'port 0'],
  ['https://cdn.example.com:65536/a.jpg', false, 'a port past 65535'],
  ['https://cdn.example.com:x/a.jpg', false, 'a port that is no number'],
  ['https://exa mple.com/', false, 'a space in the host'],
  ['https://xn--a.example/', false, 'an invalid punycode label'],
  ['http://cdn.example.com/a.jpg', false, 'plain http'],
  ['ftp://cdn.example.com/a.jpg', false, 'another scheme'],
  ['//cdn.example.com/a.jpg', false, 'scheme-relative'],
  ['cdn.example.com/a.jpg', false, 'no scheme'],
  ['/api/media/not-a-uuid', false, 'a path that is no media path'],
  ['', false, 'empty'],
  [`https://cdn.example.com/${'a'.repeat(MAX_URL_LENGTH)}`, false, `longer than ${MAX_URL_LENGTH} characters`],
  ['😀'.repeat(MAX_URL_LENGTH), false, 'no URL, at the limit in 4-byte characters'],
  [`https://cdn.example.com/${'😀'.repeat(1000)}`, true, 'under the limit in code points, over it in UTF-16'],
];

const MEDIA_PATH = '/api/media/0f8fad5b-d9cb-469f-a165-70867728950e';

describe('HttpsUrl', () => {
  it.each(DECISIONS)('%j → accepted %s (%s)', (url, accepted) => {
    const result = HttpsUrl.safeParse(url);
    expect(result.success).toBe(accepted);
    expect(httpsUrlProblem(url) === undefined).toBe(accepted);
    if (!result.success) expect(result.error.issues[0]?.message).toMatch(/URL|[Pp]ort/);
  });

  it('refuses a media path: a sourceUrl or profile is fetched or linked from outside', () => {
    expect(HttpsUrl.safeParse(MEDIA_PATH).success).toBe(false);
  });

  it('says what was wrong', () => {
    expect(httpsUrlProblem('https://user:pass@x.example')).toBe('A URL may not carry a user name or password');
    expect(httpsUrlProblem('https:/x')).toMatch(/^Expected an absolute https:\/\/ URL with a host/);
    expect(httpsUrlProblem('https://')).toMatch(/^The URL has no host/);
  });
});

describe('MediaUrl', () => {
  it.each(DECISIONS)('%j → accepted %s (%s)', (url, accepted) => {
    expect(MediaUrl.safeParse(url).success).toBe(accepted);
  });

  it("accepts the team's /api/media/<uuid> path, and only that path form", () => {
    expect(MediaUrl.safeParse(MEDIA_PATH).success).toBe(true);
    expect(MediaUrl.safeParse(MEDIA_PATH.toUpperCase().replace('/API/MEDIA/', '/api/media/')).success).toBe(true);
    expect(MediaUrl.safeParse(`${MEDIA_PATH}/x`).success).toBe(false);
    expect(MediaUrl.safeParse(`https://x.example${MEDIA_PATH}`).success).toBe(true);
  });
});

/** Schemas under optional/nullable/default/array wrappers down to the one that checks a string. */
function stringSchemaOf(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable || current instanceof z.ZodDefault)
      current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodArray) current = current.element as z.ZodType;
    else return current;
  }
}

/** Every field of every request body whose name says it holds a URL, found from the endpoint declarations. */
function urlFields(): { where: string; schema: z.ZodType }[] {
  const found: { where: string; schema: z.ZodType }[] = [];
  for (const e of Object.values(apiEndpoints) as EndpointDefinition[]) {
    const body = e.body;
    if (!(body instanceof z.ZodObject)) continue;
    for (const [key, field] of Object.entries(body.shape as Record<string, z.ZodType>)) {
      if (/urls?$/i.test(key)) found.push({ where: `${e.operationId}.${key}`, schema: stringSchemaOf(field) });
    }
  }
  return found;
}

describe('every URL a request body accepts', () => {
  const fields = urlFields();

  it('is found (mediaUrls, sourceUrl, profileUrl in their create and update bodies)', () => {
    const names = fields.map((f) => f.where);
    for (const name of [
      'createCommunicationMessage.mediaUrls',
      'updateCommunicationMessage.mediaUrls',
      'createSocialPost.mediaUrls',
      'updateSocialPost.mediaUrls',
      'createMarketingAsset.sourceUrl',
      'createCarPhoto.sourceUrl',
      'createSocialAccount.profileUrl',
      'updateSocialAccount.profileUrl',
    ])
      expect(names).toContain(name);
  });

  it.each(DECISIONS.filter(([, accepted]) => !accepted))('refuses %j (%s) wherever a URL is accepted', (url) => {
    for (const field of fields) expect(field.schema.safeParse(url).success, field.where).toBe(false);
  });

  it('accepts a plain https URL wherever a URL is accepted', () => {
    for (const field of fields)
      expect(field.schema.safeParse('https://cdn.example.com/a.jpg').success, field.where).toBe(true);
  });
});
