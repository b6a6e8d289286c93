import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';

// Signed here with node:crypto, the way a server signs, and checked with the SDK's Web Crypto code.
const secret = 'whsec_dGVzdC1zZWNyZXQtb2YtdGhpcnR5LXR3by1ieXRlcyE';
const event = { id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', cursor: 3, type: 'car.created', data: { id: 'x' } };
const body = JSON.stringify(event);
const now = () => Math.floor(Date.now() / 1000);
const signature = (payload: string, t: number, key = secret) =>
  createHmac('sha256', key).update(`${t}.${payload}`).digest('hex');
const header = (payload = body, t = now(), key = secret) => `t=${t},v1=${signature(payload, t, key)}`;

describe('verifyWebhook', () => {
  it('returns the event of a delivery signed with the secret, from a string or the raw bytes', async () => {
    expect(await verifyWebhook(body, header(), secret)).toEqual(event);
    expect(await verifyWebhook(new TextEncoder().encode(body), header(), secret)).toEqual(event);
  });

  it('accepts any one of several v1 signatures (a rotated secret)', async () => {
    const t = now();
    const both = `t=${t},v1=${signature(body, t, 'whsec_old')},v1=${signature(body, t)}`;
    expect(await verifyWebhook(body, both, secret)).toEqual(event);
  });

  const refusals: [string, () => [string, string | undefined], RegExp][] = [
    ['a tampered body', () => [body.replace('car.created', 'car.deleted'), header()], /does not match/],
    ['re-serialized JSON (other bytes)', () => [JSON.stringify(event, null, 2), header()], /does not match/],
    ['another secret', () => [body, header(body, now(), 'whsec_other')], /does not match/],
    ['a replay from ten minutes ago', () => [body, header(body, now() - 600)], /over the 300 s tolerance/],
    ['a timestamp from the future', () => [body, header(body, now() + 600)], /over the 300 s tolerance/],
    ['no header', () => [body, undefined], /No Vsf-Signature header/],
    ['no v1', () => [body, `t=${now()}`], /Malformed/],
    ['no timestamp', () => [body, `v1=${signature(body, now())}`], /Malformed/],
    ['a timestamp that is not a number', () => [body, `t=soon,v1=${signature(body, now())}`], /Malformed/],
    ['a truncated signature', () => [body, header().slice(0, -2)], /does not match/],
  ];
  for (const [name, make, message] of refusals) {
    it(`refuses ${name}`, async () => {
      const [payload, value] = make();
      const error = await verifyWebhook(payload, value, secret).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as Error).message).toMatch(message);
    });
  }

  it('takes a wider tolerance when asked', async () => {
    expect(await verifyWebhook(body, header(body, now() - 600), secret, 900)).toEqual(event);
  });

  // NaN is over no tolerance and Infinity is under every age: either would accept a replay from last year.
  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -5, '300', null])(
    'refuses a tolerance of %s, even for a delivery that is otherwise good',
    async (tolerance) => {
      const replay = header(body, now() - 365 * 86_400);
      for (const value of [replay, header()]) {
        const error = await verifyWebhook(body, value, secret, tolerance as number).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RangeError);
        expect((error as Error).message).toMatch(/finite number of seconds above 0/);
      }
    },
  );
});
