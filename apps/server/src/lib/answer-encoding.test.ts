import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedEncoding, compressible, encodeAnswer, encodeAnswerSync } from './answer-encoding.ts';

describe('answers kept compressed', () => {
  it('reads Accept-Encoding as @fastify/compress does', () => {
    const of = (accept?: string, extra: Record<string, string> = {}) =>
      acceptedEncoding({ ...(accept === undefined ? {} : { 'accept-encoding': accept }), ...extra });
    expect(of()).toBeUndefined();
    expect(of('gzip, deflate, br')).toBe('br');
    expect(of('gzip, deflate, br, zstd')).toBe('br');
    expect(of('gzip')).toBe('gzip');
    expect(of('GZIP')).toBe('gzip');
    expect(of('x-gzip')).toBe('gzip');
    expect(of('*')).toBe('gzip');
    expect(of('br;q=0, gzip')).toBe('gzip');
    expect(of('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(of('identity')).toBeUndefined();
    expect(of('deflate')).toBeUndefined();
    expect(of('br;q=0, gzip;q=0')).toBeUndefined();
    expect(of('')).toBeUndefined();
    expect(of('br', { 'x-no-compression': '' })).toBeUndefined();
    // A header read before is answered from memory the same way.
    expect(of('br;q=0, gzip')).toBe('gzip');
  });

  it('compresses text, JSON and XML of 1 KB or more', () => {
    const long = 'x'.repeat(1024);
    expect(compressible('application/json; charset=utf-8', long)).toBe(true);
    expect(compressible('application/problem+json', long)).toBe(true);
    expect(compressible('application/xml', long)).toBe(true);
    expect(compressible('text/plain', long)).toBe(true);
    expect(compressible('application/json', long.slice(1))).toBe(false);
    // 512 characters of two bytes each: 1 KB of UTF-8.
    expect(compressible('application/json', 'é'.repeat(512))).toBe(true);
    expect(compressible('text/event-stream', long)).toBe(false);
    expect(compressible('image/png', long)).toBe(false);
  });

  it('encodes on the thread pool and on the calling thread alike', async () => {
    const text = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}` })));
    const br = await encodeAnswer(text, 'br');
    const gz = await encodeAnswer(text, 'gzip');
    expect(brotliDecompressSync(br).toString()).toBe(text);
    expect(gunzipSync(gz).toString()).toBe(text);
    expect(br.length).toBeLessThan(text.length / 3);
    expect(encodeAnswerSync(Buffer.from(text), 'br').equals(br)).toBe(true);
    expect(gunzipSync(encodeAnswerSync(Buffer.from(text), 'gzip')).toString()).toBe(text);
  });
});
