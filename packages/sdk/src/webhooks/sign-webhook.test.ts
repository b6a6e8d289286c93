import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VsfClient } from '../generated/vsf-client.js';
import { signWebhook, webhooks } from './sign-webhook.js';
import { WebhookVerificationError } from './verify-webhook.js';

const secret = 'whsec_dGVzdC1zZWNyZXQtb2YtdGhpcnR5LXR3by1ieXRlcyE';
const body = JSON.stringify({ id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', cursor: 1, type: 'car.created' });

describe('webhooks.sign', () => {
  it('makes the header a server sends, which verify accepts', async () => {
    const t = 1_700_000_000;
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(await signWebhook(body, secret, t)).toBe(`t=${t},v1=${expected}`);
    expect(await webhooks.verify(body, await webhooks.sign(body, secret), secret)).toEqual(JSON.parse(body));
    const bytes = new TextEncoder().encode(body);
    expect(await webhooks.verify(bytes, await webhooks.sign(bytes, secret), secret)).toEqual(JSON.parse(body));
  });

  it('is on the client too, and its old timestamp or another secret is refused by verify', async () => {
    const client = new VsfClient({ apiKey: 'vsf_abcdefghijkl.x', baseUrl: 'http://127.0.0.1:9/api/v1' });
    const old = await client.webhooks.sign(body, secret, Math.floor(Date.now() / 1000) - 600);
    await expect(client.webhooks.verify(body, old, secret)).rejects.toThrow(/over the 300 s tolerance/);
    const other = await client.webhooks.sign(body, 'whsec_other');
    await expect(webhooks.verify(body, other, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses what is not a body, a secret or a timestamp', async () => {
    await expect(signWebhook({ id: 1 } as unknown as string, secret)).rejects.toThrow(/JSON.stringify an event first/);
    await expect(signWebhook(body, '')).rejects.toThrow(/signing secret/);
    await expect(signWebhook(body, secret, 1.5)).rejects.toThrow(/whole unix seconds/);
  });
});
