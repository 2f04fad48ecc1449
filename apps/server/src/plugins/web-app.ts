import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isWebRoute } from '@portico/contracts/web-routes';
import { errorDocument } from '../jsonapi/errors.ts';

/** Paths served by the portal API and the OAuth servers: never answered with the web app. */
export const API_PREFIXES = [
  '/jsonapi/',
  '/phpsdk/',
  '/api/',
  '/user/',
  '/session/',
  '/idp/',
  '/oauth/',
  '/sandbox/',
  '/secret/',
  '/openid-connect/',
  '/admin-api/',
  '/healthz',
  '/readyz',
];

function wantsWebApp(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url;
  if (API_PREFIXES.some((p) => url.startsWith(p))) return false;
  const query = request.query as Record<string, unknown> | undefined;
  if (query && '_format' in query) return false;
  // A missing file with an extension (e.g. /assets/old-hash.js) is a real 404, not a route.
  const pathname = url.split('?')[0] ?? '';
  return !/\.[a-z0-9]{1,8}$/i.test(pathname) || pathname.endsWith('.html');
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, and every
 * other page path answered with index.html so the client router can take over (history fallback):
 * status 200 for a route of the web app (contracts/web-routes.ts) or a basic page, else 404.
 */
export default fp(
  async (app) => {
    const dist = app.config.webDist;
    const indexFile = path.join(dist, 'index.html');
    const built = fs.existsSync(indexFile);
    if (built) {
      await app.register(fastifyStatic, {
        root: dist,
        prefix: '/',
        wildcard: false,
        index: false,
        // The build writes .br and .gz beside each script and style sheet (apps/web/vite.config.ts).
        preCompressed: true,
        // Built asset names carry a content hash, so they never change: cache them for a year.
        cacheControl: false,
        setHeaders(reply, filePath) {
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    } else {
      app.log.warn({ dist }, 'the web app is not built: run `npm run build`');
    }

    const sendIndex = (reply: FastifyReply, status = 200) => {
      if (!built) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built yet. Run `npm run build`, then start the server again.');
      }
      return reply.status(status).header('Cache-Control', 'no-cache').sendFile('index.html', dist);
    };

    app.get('/', (_request, reply) => sendIndex(reply));

    // A path no page answers gets the web app with status 404 (its 404 page sets the meta marker),
    // so that crawlers and monitors see it: neither a route of the web app nor a basic page.
    app.setNotFoundHandler(async (request, reply) => {
      if (wantsWebApp(request)) {
        const pathname = request.url.split('?', 1)[0] ?? '/';
        const exists = isWebRoute(pathname) || (await app.basicPageExists(pathname));
        return sendIndex(reply, exists ? 200 : 404);
      }
      return reply
        .status(404)
        .type('application/vnd.api+json')
        .send(errorDocument({ status: 404, message: 'The requested resource was not found.' }));
    });
  },
  { name: 'web-app', dependencies: ['pages'] },
);
