import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptBytes, bodyTooLarge } from './raw-body.ts';

const LIMIT = 1024;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    acceptBytes(scope, '*', LIMIT);
    scope.post(
      '/upload',
      {
        bodyLimit: LIMIT,
        errorHandler: bodyTooLarge(() => Object.assign(new Error('too large'), { statusCode: 413 })),
      },
      async (request) => {
        const body = request.body as Buffer;
        return {
          text: body.toString('utf8'),
          // Movable to a worker thread: the whole of an ArrayBuffer of its own.
          own: body.byteOffset === 0 && body.buffer.byteLength === body.length,
        };
      },
    );
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

/** A request written as `chunks` (each its own write), with or without a Content-Length. */
function send(chunks: string[], contentLength?: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/upload',
        headers: {
          'content-type': 'application/yaml',
          ...(contentLength === undefined
            ? { 'transfer-encoding': 'chunked' }
            : { 'content-length': contentLength }),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

describe('acceptBytes', () => {
  it('hands the route the bytes in one buffer of their own, with or without a declared length', async () => {
    const declared = await send(['openapi: 3.1.0\n', 'info: {}\n'], 24);
    expect(declared.status).toBe(200);
    expect(JSON.parse(declared.body)).toEqual({ text: 'openapi: 3.1.0\ninfo: {}\n', own: true });
    const chunked = await send(['a', 'b', 'c']);
    expect(JSON.parse(chunked.body)).toMatchObject({ text: 'abc' });
    const empty = await send([], 0);
    expect(JSON.parse(empty.body)).toMatchObject({ text: '' });
  });

  it("keeps Fastify's limits: a declared or a received length over the limit is a 413", async () => {
    expect((await send(['x'], LIMIT + 1)).status).toBe(413);
    expect((await send(['x'.repeat(600), 'x'.repeat(600)])).status).toBe(413);
    expect((await send(['x'.repeat(LIMIT)], LIMIT)).status).toBe(200);
  });
});
