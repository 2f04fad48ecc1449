import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startTestApp } from './test-app.ts';

/**
 * A graceful stop (app.close: SIGTERM, a rolling deploy, every test's end) lets requests in flight
 * finish and closes keep-alive connections as they fall idle; it must not wait for a connection's
 * keep-alive time (72 s) because its response was still being written when the stop began.
 */
describe('graceful close', () => {
  it('closes a keep-alive connection whose streamed response ends after the close began', async () => {
    let endStream = () => {};
    const t = await startTestApp({}, (app) => {
      // A body whose last byte is written before the stream ends, as a file's read stream does:
      // the client has the whole body (its Content-Length) while the response is still open. An image
      // type, as the console's images: compression leaves it as it is.
      app.get('/test/slow-end', (_request, reply) => {
        const body = new Readable({ read() {} });
        body.push('hello');
        endStream = () => body.push(null);
        return reply.header('Content-Length', '5').type('image/png').send(body);
      });
    });
    let closed = false;
    try {
      const res = await fetch(`${t.baseUrl}/test/slow-end`);
      expect(await res.text()).toBe('hello');
      expect(res.headers.get('connection')).not.toBe('close');
    } finally {
      const closing = t.close().then(() => (closed = true));
      // The response ends once the stop has begun (the server no longer listens): its connection
      // is idle only from then on.
      while (t.app.server.listening) await new Promise((resolve) => setTimeout(resolve, 10));
      endStream();
      // Closed in well under the 72 s keep-alive (the sweep runs every 100 ms).
      const deadline = Date.now() + 15_000;
      while (!closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed).toBe(true);
      await closing;
    }
  });
});
