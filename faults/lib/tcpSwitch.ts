// A TCP pass-through in front of a service (the bucket), which the test can cut: while cut, open
// connections are reset and new ones are closed as soon as they arrive, as when a network path or
// the service itself is gone; mended, it passes bytes again. The port stays the same throughout, so
// the instances keep the endpoint (and presigned links keep the host) they were given.
import net from 'node:net';

export interface TcpSwitch {
  readonly endpoint: string;
  cut(): void;
  mend(): void;
  /** Connections refused while cut (to check that the outage was really hit). */
  readonly refused: number;
  close(): Promise<void>;
}

export async function tcpSwitch(target: { host: string; port: number }): Promise<TcpSwitch> {
  const open = new Set<net.Socket>();
  let cut = false;
  let refused = 0;
  const server = net.createServer((client) => {
    if (cut) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const s of open) s.resetAndDestroy();
      open.clear();
    },
    mend() {
      cut = false;
    },
    get refused() {
      return refused;
    },
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
