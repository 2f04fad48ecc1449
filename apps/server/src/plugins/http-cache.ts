import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import type { DataVersionReader } from '../db/data-versions.ts';
import {
  acceptedEncoding,
  COMPRESSED_FROM_BYTES,
  encodeAnswerSync,
  type AnswerEncoding,
} from '../lib/answer-encoding.ts';
import { HSTS_VALUE, overTls } from '../lib/transport.ts';
import { AGENT_CALL_HEADER } from './session.ts';

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
 * - The answers of routes cached per user (`perUser`) differ between visitors and users, so all of
 *   them, anonymous ones and hits included, say `Vary: Cookie` (with Accept-Encoding when they may
 *   be sent compressed): a shared cache keeps the anonymous answer for anonymous requests only.
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

interface CachedAnswer {
  /** The domains the answer depends on, and their counters when it was computed. */
  domains: readonly string[];
  stamp: string;
  etag: string;
  /** UTF-8 once: sending a string would encode it again on every hit. */
  body: Buffer;
  contentType: string;
  cacheControl: string | undefined;
  /** The route's answer depends on the session (`perUser`): sent with `Vary: Cookie`. */
  varyCookie: boolean;
  br?: Buffer;
  gzip?: Buffer;
  /**
   * The answer's headers as first sent, less those that depend on the request: what the early
   * path (`answerEarly`) sends again without running the hooks that set them.
   */
  fixedHeaders?: Record<string, string | number | string[]>;
}

/** Headers never replayed by the early path: set for each request, or by the early path itself. */
const PER_REQUEST_HEADERS = new Set([
  'request-id',
  'content-length',
  'content-encoding',
  'content-type',
  'etag',
  'cache-control',
  'vary',
  'strict-transport-security',
  'connection',
  'set-cookie',
  'date',
  'x-portico-cache',
  'transfer-encoding',
]);

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

export default fp(
  async (app) => {
    const versions = app.dataVersions;
    const cache = new LRUCache<string, CachedAnswer>({
      maxSize: MAX_CACHE_BYTES,
      sizeCalculation: (e) => e.body.length + (e.br?.length ?? 0) + (e.gzip?.length ?? 0) + 200,
    });
    const shared = { versions, cache, closing: false };
    app.decorate('publicAnswerCache', shared);
    // Answers sent while closing end their connection (app.ts does the same for the other answers).
    app.addHook('preClose', async () => {
      shared.closing = true;
    });

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

/**
 * The request headers an answer may depend on besides the URL and the user (content negotiation);
 * part of the key of a signed-in answer. No cached route reads another header (a route that does
 * must not opt in).
 */
const KEYED_HEADERS = ['accept', 'accept-language'] as const;

function keyOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.url}`;
}

/** A signed-in answer's key: the user, the negotiated headers and the URL. */
function userKeyOf(request: FastifyRequest, userId: number): string {
  const headers = KEYED_HEADERS.map((h) => request.headers[h] ?? '').join('\n');
  return `user:${userId}\n${headers}\n${keyOf(request)}`;
}

/** `value` with `name` added to its list unless it names it already (Vary is case-insensitive). */
export function mergeVary(value: string | number | string[] | undefined, name: string): string {
  const names = (Array.isArray(value) ? value : value === undefined ? [] : [String(value)])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (!names.some((n) => n === '*' || n.toLowerCase() === name.toLowerCase())) names.push(name);
  return names.join(', ');
}

/**
 * The Vary of a cached answer: Cookie when it depends on the session, Accept-Encoding when it is
 * large enough to be sent compressed.
 */
function varyOf(entry: CachedAnswer): string | undefined {
  const names = [];
  if (entry.varyCookie) names.push('Cookie');
  if (entry.body.length >= COMPRESSED_FROM_BYTES) names.push('Accept-Encoding');
  return names.length ? names.join(', ') : undefined;
}

function stampOf(versions: Map<string, string>, domains: readonly string[]): string {
  return domains.map((d) => versions.get(d) ?? '0').join(',');
}

function compressed(entry: CachedAnswer, encoding: AnswerEncoding): Buffer {
  return (entry[encoding] ??= encodeAnswerSync(entry.body, encoding));
}

function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedAnswer): FastifyReply {
  reply.header('ETag', entry.etag).header('Content-Type', entry.contentType);
  reply.header('Cache-Control', entry.cacheControl ?? 'public, no-cache');
  reply.header('X-Portico-Cache', 'hit');
  const vary = varyOf(entry);
  if (vary) reply.header('Vary', vary);
  if (entry.body.length < COMPRESSED_FROM_BYTES || matchesEtag(request.headers['if-none-match'], entry.etag))
    return reply.send(entry.body);
  const encoding = acceptedEncoding(request.headers);
  if (!encoding) return reply.send(entry.body);
  return reply.header('Content-Encoding', encoding).send(compressed(entry, encoding));
}

export interface CacheAnswersOptions {
  /** The data domains (db/data-versions.ts) of every table the routes' answers read. */
  domains: readonly string[];
  /**
   * Also cache signed-in answers, per user (decision 028): keyed by the user id, the URL and the
   * negotiated headers, valid while the counters of `domains` and of `identity` (the users) are
   * unchanged, and kept `private, no-store` for shared caches. For routes whose answer depends on
   * nothing but the database, the URL and the signed-in user.
   */
  perUser?: boolean;
  /** Only these route patterns of the scope (as declared, e.g. `/phpsdk/organization/apps`). */
  routes?: readonly string[];
}

/**
 * Answers the GETs of the routes of `scope` from memory while the counters of `domains` are
 * unchanged (see the top of this file): anonymous GETs always, signed-in ones per user with
 * `perUser`. Only for routes whose answer depends on nothing but the request URL, those domains'
 * tables (and, with `perUser`, the user): never on the session, the time or another table.
 * Call it before the scope's routes are added.
 */
export function cacheAnswers(scope: FastifyInstance, options: CacheAnswersOptions): void {
  const { domains, perUser = false, routes } = options;
  // A signed-in answer also depends on who the user is (name, e-mail, administrator role).
  const userDomains = domains.includes('identity') ? domains : [...domains, 'identity'];
  const state = new WeakMap<FastifyRequest, { key: string; stamp: string; signedIn: boolean }>();
  const cached = (request: FastifyRequest) =>
    request.method === 'GET' && (!routes || routes.includes(request.routeOptions.url ?? ''));
  scope.addHook('onRequest', async (request, reply) => {
    if (!cached(request)) return;
    let key: string;
    let stamp: string;
    const user = request.user;
    if (isAnonymous(request, scope.sessionCookieName)) {
      stamp = stampOf(await scope.dataVersions.forRequest(request), domains);
      key = keyOf(request);
    } else if (perUser && user && request.session) {
      stamp = stampOf(await scope.dataVersions.forRequest(request), userDomains);
      key = userKeyOf(request, user.id);
    } else return;
    const entry = scope.publicAnswerCache.cache.get(key);
    if (entry && entry.stamp === stamp) return sendCached(request, reply, entry);
    state.set(request, { key, stamp, signedIn: !!user });
  });
  scope.addHook('onSend', async (request, reply, payload) => {
    // An anonymous answer and a user's differ: a shared cache must not hand one for the other.
    if (perUser && cached(request)) reply.header('Vary', mergeVary(reply.getHeader('vary'), 'Cookie'));
    const pending = state.get(request);
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (payload.length > MAX_ENTRY_BYTES || reply.getHeader('set-cookie') !== undefined) return payload;
    const etag = reply.getHeader('etag');
    const cacheControl = reply.getHeader('cache-control');
    const ownCacheControl =
      typeof cacheControl === 'string' && cacheControl !== 'no-cache' ? cacheControl : undefined;
    const entry: CachedAnswer = {
      domains: pending.signedIn ? userDomains : domains,
      stamp: pending.stamp,
      etag: typeof etag === 'string' ? etag : strongEtag(payload),
      body: Buffer.from(payload),
      contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
      // A signed-in answer stays out of shared caches unless its route said it is public.
      cacheControl: pending.signedIn ? (ownCacheControl ?? 'private, no-store') : ownCacheControl,
      varyCookie: perUser,
    };
    reply.header('ETag', entry.etag);
    if (!ownCacheControl) reply.header('Cache-Control', entry.cacheControl ?? 'public, no-cache');
    entry.fixedHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined && !PER_REQUEST_HEADERS.has(name)) entry.fixedHeaders[name] = value;
    scope.publicAnswerCache.cache.set(pending.key, entry);
    return payload;
  });
}

/**
 * The early path of a hit (issue 11, decision 028): app.ts adds this hook first, so a GET whose
 * answer is cached and current (anonymous, or for a session this process knows and need not
 * reload or touch) is sent on the raw response before the other hooks run (security headers, text
 * checks, cookie parsing, session, CSRF, compression, ETag, logging): those headers were recorded
 * with the answer (`fixedHeaders`), the URL passed the text checks when the answer was computed,
 * and nothing else about the request changes the answer. Anything else (a miss, an unknown
 * session, a changed counter) takes the normal path.
 */
export async function answerEarly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.method !== 'GET') return;
  // An agent's in-process call for a user (plugins/session.ts) is never an anonymous visitor's.
  if (request.headers[AGENT_CALL_HEADER] !== undefined) return;
  const server = request.server;
  const shared = server.publicAnswerCache;
  let key: string;
  if (request.headers.cookie?.includes(server.sessionCookieName)) {
    // Signed in: only a session this process knows and need not reload nor touch.
    const user = await server.knownSessionUser(request);
    if (!user) return;
    key = userKeyOf(request, user.id);
  } else key = keyOf(request);
  const entry = shared.cache.get(key);
  if (!entry?.fixedHeaders) return;
  if (stampOf(await server.dataVersions.forRequest(request), entry.domains) !== entry.stamp) return;
  const headers: Record<string, string | number | string[]> = {
    ...entry.fixedHeaders,
    'request-id': request.id,
    etag: entry.etag,
    'cache-control': entry.cacheControl ?? 'public, no-cache',
    'x-portico-cache': 'hit',
  };
  if (overTls(server, request)) headers['strict-transport-security'] = HSTS_VALUE;
  if (shared.closing) headers.connection = 'close';
  const vary = varyOf(entry);
  if (vary) headers.vary = vary;
  reply.hijack();
  const raw = reply.raw;
  if (matchesEtag(request.headers['if-none-match'], entry.etag)) {
    raw.writeHead(304, headers);
    raw.end();
    return;
  }
  headers['content-type'] = entry.contentType;
  let body = entry.body;
  if (entry.body.length >= COMPRESSED_FROM_BYTES) {
    const encoding = acceptedEncoding(request.headers);
    if (encoding) {
      body = compressed(entry, encoding);
      headers['content-encoding'] = encoding;
    }
  }
  headers['content-length'] = body.length;
  raw.writeHead(200, headers);
  raw.end(body);
}

/** The anonymous answers only (decision 018): `cacheAnswers` without `perUser`. */
export function cachePublicAnswers(scope: FastifyInstance, options: { domains: readonly string[] }): void {
  cacheAnswers(scope, options);
}

declare module 'fastify' {
  interface FastifyInstance {
    publicAnswerCache: {
      versions: DataVersionReader;
      cache: LRUCache<string, CachedAnswer>;
      closing: boolean;
    };
  }
}
