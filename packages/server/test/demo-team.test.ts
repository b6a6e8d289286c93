import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startServer } from '../src/runtime/start-server.js';
import { migratedPglite } from '../src/testing/migrated-pglite.js';
import { testServerConfig } from '../src/testing/start-test-server.js';

/** A loopback port something else already listens on. */
async function occupiedPort(): Promise<{ port: number; blocker: Server }> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  return { port: (blocker.address() as { port: number }).port, blocker };
}

describe('the demo team of a first start', () => {
  it('is not used up by a start that fails to listen: the next start on the database shows its key', async () => {
    const pglite = await migratedPglite();
    const { port, blocker } = await occupiedPort();
    try {
      await expect(startServer(testServerConfig({ port }), { bootstrapDemo: true, pglite })).rejects.toThrow(
        /EADDRINUSE/,
      );
    } finally {
      blocker.close();
    }
    const running = await startServer(testServerConfig(), { bootstrapDemo: true, pglite });
    try {
      expect(running.demo?.key).toMatch(/^vsf_/);
      const whoami = await fetch(`${running.url}/api/v1/auth/key`, {
        headers: { authorization: `Bearer ${running.demo?.key}` },
      });
      expect(whoami.status).toBe(200);
    } finally {
      await running.close();
    }
  });
});
