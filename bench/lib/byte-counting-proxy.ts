import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP pass-through in front of a server that counts the bytes clients send: what an upload really puts
 * on the wire (bodies, headers, every retry), the same for every client measured through it.
 */
export async function startByteCountingProxy(target: string) {
  const { hostname, port } = new URL(target);
  let sent = 0;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('data', (chunk: Buffer) => {
      sent += chunk.byteLength;
    });
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    /** The target's URL with the proxy's host and port. */
    url: url.toString().replace(/\/$/, ''),
    /** Bytes clients sent since the last call. */
    takeSent(): number {
      const n = sent;
      sent = 0;
      return n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  };
}
