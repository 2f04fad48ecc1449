import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { localWriteCounter } from '../db/client.ts';
import { readDataVersions } from '../db/data-versions.ts';

/**
 * HTTP caching of the portal API (decision 018, jsonapi/README.md "Caching"):
 *
 * - Every GET answer 200 of the API (`/jsonapi/`, `/phpsdk/`, `/api/`, ...) whose body is text or
 *   bytes gets a strong ETag, the hash of its bytes; a request whose If-None-Match names it gets
 *   a 304 without a body. Answers to signed-in requests keep `private, no-store` (plugins/session.ts);
 *   anonymous answers of routes that did not opt in get `no-cache` and `Vary: Cookie`, so that no
 *   shared cache hands one visitor's answer to a signed-in user.
 * - A module whose public answers depend only on its content opts in with
 *   `cachePublicAnswers(scope, { domains })`: anonymous GETs of that scope are answered from memory
 *   while the change counters of those domains (db/data-versions.ts, bumped by triggers in the
 *   writing transaction) are unchanged. The counters are read once per request, and concurrent
 *   requests share one read that started after they arrived, so a change committed through any
 *   instance is seen by the next request everywhere.
 */

/** Paths of the API: the answers the ETag hook looks at (web app files have their own). */
const API_PREFIXES = [
  '/jsonapi/',
  '/phpsdk/',
  '/api/',
  '/admin-api/',
  '/user/',
  '/session/',
  '/block-layout',
];
/** Largest answer kept in memory, and all of them together. */
const MAX_ENTRY_BYTES = 2 * 1024 * 1024;
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** As @fastify/compress (plugins/security.ts): smaller answers are sent as they are. */
const COMPRESS_THRESHOLD = 1024;

interface CachedAnswer {
  /** The counters of the answer's domains when it was computed. */
  stamp: string;
  etag: string;
  /** UTF-8 once: sending a string would encode it again on every hit. */
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  br?: Buffer;
  gzip?: Buffer;
}

export function strongEtag(payload: string | Buffer): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names `etag` (a list, weak forms and `*` included). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const header = ifNoneMatch.trim();
  if (header === '*') return true;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === etag || tag === `W/${etag}`;
  });
}

/** The encoding of a cached answer for this Accept-Encoding: br, gzip or none. */
function preferredEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (!accept) return undefined;
  let gzip = false;
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    if (refused) continue;
    if (name === 'br') return 'br';
    if (name === 'gzip') gzip = true;
  }
  return gzip ? 'gzip' : undefined;
}

/**
 * Shares one read of the counters between the requests waiting for it: a request never uses a
 * read that started before it arrived (it could miss a change committed in between), only one
 * that starts after.
 */
export class CoalescedReader<T> {
  private inFlight: Promise<T> | null = null;
  private next: Promise<T> | null = null;
  reads = 0;
  private readonly load: () => Promise<T>;
  constructor(load: () => Promise<T>) {
    this.load = load;
  }

  read(): Promise<T> {
    if (!this.inFlight) return this.start();
    this.next ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<T> {
    this.reads++;
    const p = this.load().finally(() => {
      if (this.inFlight === p) this.inFlight = null;
    });
    this.inFlight = p;
    return p;
  }
}

export default fp(
  async (app) => {
    const coalesced = new CoalescedReader(() => readDataVersions(app.db));
    // On the embedded database this process is the only writer: a read of the counters holds until
    // the next statement that may write (db/client.ts localWriteCounter).
    const writes = localWriteCounter(app.db);
    let held: { value: Map<string, string>; started: number } | undefined;
    const versions = {
      reads: () => coalesced.reads,
      read: async (): Promise<Map<string, string>> => {
        if (!writes) return coalesced.read();
        if (held && held.started === writes.started && writes.done === writes.started) return held.value;
        const started = writes.started;
        const quiet = writes.done === started;
        const value = await coalesced.read();
        held = quiet && writes.started === started ? { value, started } : undefined;
        return value;
      },
    };
    const cache = new LRUCache<string, CachedAnswer>({
      maxSize: MAX_CACHE_BYTES,
      sizeCalculation: (e) => e.body.length + (e.br?.length ?? 0) + (e.gzip?.length ?? 0) + 200,
    });
    app.decorate('publicAnswerCache', { versions, cache });

    // The ETag and the 304 of every API answer; registered after the session plugin, so the
    // Cache-Control of signed-in answers is already set.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
      if (reply.statusCode !== 200) return payload;
      if (!API_PREFIXES.some((p) => request.url.startsWith(p))) return payload;
      let etag = reply.getHeader('etag');
      if (etag === undefined) {
        if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
        etag = strongEtag(payload);
        reply.header('ETag', etag);
      }
      if (!reply.hasHeader('cache-control')) {
        reply.header('Cache-Control', 'no-cache');
        reply.header('Vary', 'Cookie');
      }
      if (typeof etag === 'string' && matchesEtag(request.headers['if-none-match'], etag)) {
        reply.code(304);
        reply.removeHeader('content-encoding');
        reply.removeHeader('content-length');
        reply.removeHeader('content-type');
        return '';
      }
      return payload;
    });
  },
  { name: 'http-cache', dependencies: ['db', 'session'] },
);

function isAnonymous(request: FastifyRequest, cookieName: string): boolean {
  return !request.session && !request.cookies[cookieName];
}

function keyOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url}`;
}

function stampOf(versions: Map<string, string>, domains: readonly string[]): string {
  return domains.map((d) => versions.get(d) ?? '0').join(',');
}

function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedAnswer): FastifyReply {
  reply.header('ETag', entry.etag).header('Content-Type', entry.contentType);
  reply.header('Cache-Control', entry.cacheControl ?? 'public, no-cache');
  reply.header('X-Portico-Cache', 'hit');
  if (entry.body.length < COMPRESS_THRESHOLD || matchesEtag(request.headers['if-none-match'], entry.etag))
    return reply.send(entry.body);
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  reply.header('Vary', 'Accept-Encoding');
  if (encoding === 'br') {
    entry.br ??= brotliCompressSync(entry.body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    });
    return reply.header('Content-Encoding', 'br').send(entry.br);
  }
  if (encoding === 'gzip') {
    entry.gzip ??= gzipSync(entry.body);
    return reply.header('Content-Encoding', 'gzip').send(entry.gzip);
  }
  return reply.send(entry.body);
}

/**
 * Answers the anonymous GETs of the routes of `scope` from memory while the counters of `domains`
 * are unchanged (see the top of this file). Only for routes whose answer depends on nothing but
 * the request URL and those domains' tables: never on the session, the time or another table.
 * Call it before the scope's routes are added.
 */
export function cachePublicAnswers(scope: FastifyInstance, options: { domains: readonly string[] }): void {
  const { domains } = options;
  const state = new WeakMap<FastifyRequest, { key: string; stamp: string }>();
  scope.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    if (!isAnonymous(request, scope.sessionCookieName)) return;
    const { versions, cache } = scope.publicAnswerCache;
    const stamp = stampOf(await versions.read(), domains);
    const key = keyOf(request);
    const entry = cache.get(key);
    if (entry && entry.stamp === stamp) return sendCached(request, reply, entry);
    state.set(request, { key, stamp });
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    const pending = state.get(request);
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (payload.length > MAX_ENTRY_BYTES || reply.getHeader('set-cookie') !== undefined) return payload;
    const etag = reply.getHeader('etag');
    const cacheControl = reply.getHeader('cache-control');
    const entry: CachedAnswer = {
      stamp: pending.stamp,
      etag: typeof etag === 'string' ? etag : strongEtag(payload),
      body: Buffer.from(payload),
      contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      cacheControl:
        typeof cacheControl === 'string' && cacheControl !== 'no-cache' ? cacheControl : undefined,
    };
    scope.publicAnswerCache.cache.set(pending.key, entry);
    reply.header('ETag', entry.etag);
    if (!cacheControl || cacheControl === 'no-cache') reply.header('Cache-Control', 'public, no-cache');
    return payload;
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    publicAnswerCache: {
      versions: { read(): Promise<Map<string, string>>; reads(): number };
      cache: LRUCache<string, CachedAnswer>;
    };
  }
}
