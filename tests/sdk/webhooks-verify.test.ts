import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES, type V1Event } from '@vsf/contract';
import { VsfClient, WebhookVerificationError, webhooks } from '@vsf/sdk';
import { startTestServer, type TestServer } from '@vsf/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A receiver written as the SDK README shows: the raw body, the Vsf-Signature header and the secret the
// create call returned go to webhooks.verify. Real deliveries from the reference server pass; the same
// delivery tampered with, signed with another secret, or replayed past the tolerance does not.
let server: TestServer;
let receiver: Server;
let secret = '';
const deliveries: { body: Buffer; signature: string; verdict: number; event?: V1Event }[] = [];

beforeAll(async () => {
  server = await startTestServer({ webhooks: { dispatch: true, allowHttpLoopback: true, pollIntervalMs: 50 } });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const signature = String(req.headers['vsf-signature'] ?? '');
      try {
        const event = await webhooks.verify(body, signature, secret);
        deliveries.push({ body, signature, verdict: 204, event });
        res.writeHead(204).end();
      } catch {
        deliveries.push({ body, signature, verdict: 400 });
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await server?.close();
});

describe('webhooks.verify on real deliveries', () => {
  it('accepts what the server signed, and refuses it tampered, under another secret or replayed late', async () => {
    const { key } = await server.createTeamWithKey(ALL_SCOPES);
    const client = new VsfClient({ apiKey: key, baseUrl: server.baseUrl, logLevel: 'off' });
    const { port } = receiver.address() as AddressInfo;
    const endpoint = await client.webhooks.create({ url: `http://127.0.0.1:${port}/vsf`, eventTypes: ['car.created'] });
    secret = endpoint.secret ?? '';
    expect(secret).toMatch(/^whsec_/);
    const car = await client.cars.create({ year: 1957, make: 'BMW', model: '507' });

    const deadline = Date.now() + 20_000;
    while (!deliveries.some((d) => d.event?.recordId === car.id)) {
      if (Date.now() > deadline)
        throw new Error(`no verified delivery of car ${car.id}: ${JSON.stringify(deliveries)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const delivery = deliveries.find((d) => d.event?.recordId === car.id)!;
    expect(delivery.verdict).toBe(204);
    expect(delivery.event).toMatchObject({ type: 'car.created', data: { id: car.id, make: 'BMW' } });
    // The same through the client's namespace.
    expect(await client.webhooks.verify(delivery.body, delivery.signature, secret)).toEqual(delivery.event);

    const tampered = Buffer.from(delivery.body.toString().replace('"BMW"', '"BMX"'));
    await expect(webhooks.verify(tampered, delivery.signature, secret)).rejects.toThrow(/does not match/);
    await expect(webhooks.verify(delivery.body, delivery.signature, `${secret}x`)).rejects.toThrow(/does not match/);
    // A captured delivery sent again later: its timestamp is past the tolerance.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await webhooks.verify(delivery.body, delivery.signature, secret, 1).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(WebhookVerificationError);
    expect((late as Error).message).toMatch(/tolerance/);
    // Nothing the server sent was refused.
    expect(deliveries.filter((d) => d.verdict !== 204)).toEqual([]);
  });
});
