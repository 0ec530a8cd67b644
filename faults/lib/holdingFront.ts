// A simulator behind a front that, while holding, keeps the answers of the calls `holds` picks:
// the call has happened in the service, the caller waits for an answer that a killed app never gets.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';

export async function holdingFront(app: express.Express, holds: (req: Request) => boolean) {
  const held: Array<() => void> = [];
  const state = { holding: false };
  const front = express();
  front.use((req, res, next) => {
    const end = res.end.bind(res) as (...a: unknown[]) => typeof res;
    res.end = ((...args: unknown[]) => {
      if (state.holding && holds(req)) {
        held.push(() => void end(...args));
        return res;
      }
      return end(...args);
    }) as typeof res.end;
    next();
  });
  front.use(app);
  const server = http.createServer(front);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held.length,
    hold: (on: boolean) => void (state.holding = on),
    /** Sends the held answers (to nobody, for a killed app). */
    release: () => held.splice(0).forEach((send) => send()),
    close: async () => {
      held.splice(0).forEach((send) => send());
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
