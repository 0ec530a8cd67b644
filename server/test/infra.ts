// Plumbing shared by the test suites, the fault suite, the browser tests and the benchmarks
// (no vitest import here: benchmarks load it too).
import crypto from 'node:crypto';
import net from 'node:net';
import knexFactory from 'knex';

/** A TCP port free on loopback right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * A loopback port where a connection is always refused. Not a just-closed ephemeral port: a test
 * file running beside the one asking may be given that port. Port 1 is privileged and no test binds it.
 */
export const REFUSED_PORT = 1;

/**
 * A new PostgreSQL database on the server of `baseUrl` (named `<prefix>_<random>`), and how to drop
 * it: empty, or a copy of the database `template` (which nothing may be connected to).
 */
export async function createPgDatabase(baseUrl: string, prefix: string, template?: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.destroy();
  }
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    name,
    url: u.toString(),
    drop: async () => {
      const a = knexFactory({ client: 'pg', connection: baseUrl, pool: { min: 0, max: 1 } });
      try {
        await a.raw(`drop database if exists ${name} with (force)`);
      } finally {
        await a.destroy();
      }
    },
  };
}
