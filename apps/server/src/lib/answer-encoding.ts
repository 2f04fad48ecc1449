import { Negotiator } from '@fastify/accept-negotiator';
import { LRUCache } from 'lru-cache';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

/**
 * Answers compressed once and kept compressed: the answer cache's (plugins/http-cache.ts, on an
 * answer's first hit that accepts an encoding) and the sandbox's documented answers
 * (gateway/plugin.ts, in libuv's thread pool). The rest of the portal's answers are compressed by
 * @fastify/compress with the same threshold and encodings (plugins/security.ts), and read
 * `Accept-Encoding` as it does.
 */

/** Answers at least this long are sent compressed to a client that accepts it. */
export const COMPRESSED_FROM_BYTES = 1024;
/** Best first. */
export const ANSWER_ENCODINGS = ['br', 'gzip'] as const;
export type AnswerEncoding = (typeof ANSWER_ENCODINGS)[number];

/** @fastify/compress's default: text, JSON, XML and bytes, not server-sent events. */
const COMPRESSIBLE =
  /^text\/(?!event-stream)|[+/]json(?:;|$)|[+/]text(?:;|$)|[+/]xml(?:;|$)|octet-stream(?:;|$)/u;

/** Whether an answer of this type and length is sent compressed to a client that accepts it. */
export function compressible(contentType: string, body: string | Buffer): boolean {
  return COMPRESSIBLE.test(contentType) && Buffer.byteLength(body) >= COMPRESSED_FROM_BYTES;
}

const negotiator = new Negotiator<AnswerEncoding>({ supportedValues: [...ANSWER_ENCODINGS] });
/** Clients send a handful of different headers: each is read once (bounded, whatever they send). */
const negotiated = new LRUCache<string, AnswerEncoding | 'identity'>({ max: 256 });

/**
 * The encoding to answer in, read as @fastify/compress reads it: `Accept-Encoding` negotiated
 * among br and gzip by their q-values (`*` and `x-gzip` taken for gzip), none for identity or
 * without the header, and none when the client sends `x-no-compression`.
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

const brotliOptions = (length: number) => ({
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: 6,
    [constants.BROTLI_PARAM_SIZE_HINT]: length,
  },
});
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Compresses an answer off the main thread (libuv's thread pool). */
export function encodeAnswer(body: string | Buffer, encoding: AnswerEncoding): Promise<Buffer> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return encoding === 'br' ? brotli(bytes, brotliOptions(bytes.length)) : gzipped(bytes);
}

/** The same on the calling thread, for a caller that must answer in the same turn. */
export function encodeAnswerSync(body: Buffer, encoding: AnswerEncoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, brotliOptions(body.length)) : gzipSync(body);
}
