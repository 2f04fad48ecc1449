import fp from 'fastify-plugin';
import { en } from '@portico/contracts/messages';
import { notFound } from '../../lib/errors.ts';
import { readerLocale, translated } from '../../lib/translations.ts';
import { API_PREFIXES } from '../../plugins/web-app.ts';
import { consolePageRoutes } from './console.ts';
import { pageTranslation } from './importer.ts';
import { normalizeAlias, pagesRepo } from './repo.ts';

/**
 * Basic pages (spec B 2.1 '/{page}', 7 'GET {route}?_format=json'): the web app's catch-all route
 * asks for its own path with `_format=json`. Pages are public: the session, when there is one,
 * changes nothing.
 *
 * The lookup is a root wildcard route, which the router tries only when no other route matches
 * (static and parametric routes always win): `/block-layout?_format=json`,
 * `/user/login_status?_format=json` and the other JSON routes keep their own handlers. Whatever
 * the wildcard does not answer (no `_format=json`, an API path) goes on to the not-found handler
 * of plugins/web-app.ts, i.e. the web app's index.html or a JSON:API 404, as before.
 */
export default fp(
  async (app) => {
    const pages = pagesRepo(app.db);

    // The web app's not-found handler asks whether a path is a basic page (plugins/web-app.ts).
    app.decorate('basicPageExists', async (pathname: string) => {
      const alias = normalizeAlias(pathname);
      return alias !== undefined && (await pages.findByAlias(alias)) !== undefined;
    });

    app.get<{ Querystring: { _format?: unknown; langcode?: unknown } }>('/*', async (request, reply) => {
      const pathname = request.url.split('?', 1)[0] ?? '/';
      if (request.query._format !== 'json' || API_PREFIXES.some((p) => pathname.startsWith(p))) {
        return reply.callNotFound();
      }
      const alias = normalizeAlias(pathname);
      const page = alias ? await pages.findByAlias(alias) : undefined;
      // A JSON:API error document with status 404: the web app shows its 404 page (spec B 8).
      if (!page) throw notFound(en.errors.notFoundText);
      // In the reader's language (decision 063): the translation's title and body, else a fallback.
      const langcode = readerLocale(request.query.langcode);
      const [shown] = await translated(
        app.db,
        'page',
        [page],
        (p) => p.uuid,
        langcode,
        (p, t) => ({ ...p, ...pageTranslation(t) }),
        (p, translation) => ({ ...p, translation }),
      );
      return reply.header('Cache-Control', 'no-cache').send(shown);
    });

    // The console's pages (README.md 'Console').
    await app.register(consolePageRoutes);
  },
  { name: 'pages', dependencies: ['db', 'session'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a basic page answers this path (its alias, normalized). */
    basicPageExists(pathname: string): Promise<boolean>;
  }
}
