import fs from 'node:fs';
import net from 'node:net';

/**
 * The first port of the range the kernel takes local ports from, for outgoing connections (a
 * database client's) as for `listen(0)`; undefined where it cannot be read (not Linux).
 */
function ephemeralStart(): number | undefined {
  try {
    const first = Number(
      fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > 21_000 ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Listens on `port` of 127.0.0.1 for a moment: the port it got, or undefined when it was taken. */
function tryPort(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address && typeof address === 'object' ? address.port : undefined));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a server that starts listening on it a
 * few seconds later. It is chosen below the kernel's ephemeral range where that range is known: a
 * port from `listen(0)` comes from the range the outgoing connections take theirs from, and a
 * test portal opening its PostgreSQL connections between this call and its `listen` once took the
 * port it had been given (EADDRINUSE, CI of 2026-12-08). In a module of its own, so that a unit
 * test can have one without importing test-app.ts (which loads the whole server).
 */
export async function freePort(): Promise<number> {
  const below = ephemeralStart();
  if (below !== undefined) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = await tryPort(20_000 + Math.floor(Math.random() * (below - 20_000)));
      if (port !== undefined) return port;
    }
  }
  const port = await tryPort(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
