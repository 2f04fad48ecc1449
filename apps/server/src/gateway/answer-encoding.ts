import { Negotiator } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { COMPRESSED_FROM_BYTES, COMPRESSION_ENCODINGS } from '../plugins/security.ts';

/**
 * The sandbox's documented answers compressed once (issue 29): an answer is the same for every
 * call of an operation with the same Accept and Prefer headers (gateway/plugin.ts keeps it), so
 * each of its encodings is made on the first call that asks for it, in libuv's thread pool, and
 * kept beside it. @fastify/compress, which the rest of the portal uses, compressed it again for
 * every call (brotli at quality 4: 17-22 µs of the main thread for 0.5-3 KB of JSON), and its
 * hooks ran on every sandbox call, compressed or not; the sandbox's routes now only keep its
 * decompression of request bodies (gateway/routes.ts).
 */

export type AnswerEncoding = (typeof COMPRESSION_ENCODINGS)[number];

const negotiator = new Negotiator<AnswerEncoding>({ supportedValues: [...COMPRESSION_ENCODINGS] });
/** Clients send a handful of different headers: each is read once (bounded, whatever they send). */
const negotiated = new LRUCache<string, AnswerEncoding | 'identity'>({ max: 256 });

/** @fastify/compress's default: text, JSON, XML and bytes, not server-sent events. */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]text(?:;|$)|[+/]xml(?:;|$)|octet-stream(?:;|$)/u;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Whether an answer of this type and length is sent compressed to a client that accepts it. */
export function compressible(contentType: string, payload: string): boolean {
  return COMPRESSIBLE.test(contentType) && Buffer.byteLength(payload) >= COMPRESSED_FROM_BYTES;
}

/**
 * The encoding to answer in, read as @fastify/compress reads it: `Accept-Encoding` negotiated
 * among br and gzip (`*` and `x-gzip` taken for gzip), none for identity or without the header,
 * and none when the client sends `x-no-compression`.
 */
export function acceptedEncoding(headers: IncomingHttpHeaders): AnswerEncoding | undefined {
  const header = headers['accept-encoding'];
  if (header === undefined || headers['x-no-compression'] !== undefined) return undefined;
  let chosen = negotiated.get(header);
  if (chosen === undefined) {
    chosen = negotiator.negotiate(header.toLowerCase().replace(/\*|x-gzip/g, 'gzip')) ?? 'identity';
    negotiated.set(header, chosen);
  }
  return chosen === 'identity' ? undefined : chosen;
}

/** Compresses an answer's text off the main thread. */
export function encodeAnswer(payload: string, encoding: AnswerEncoding): Promise<Buffer> {
  const bytes = Buffer.from(payload);
  return encoding === 'br'
    ? brotli(bytes, {
        params: {
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_QUALITY]: 6,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipped(bytes);
}
