import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago. In a module of its own, so that a unit test
 * can have one without importing test-app.ts (which loads the whole server).
 */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}
